import { config } from "../../shared/config";

/**
 * How the client wants a run request answered: at once (`Prefer: respond-async`), or after waiting
 * up to `waitMs` (its `Prefer: wait`, or the time-out it announced, whichever is sooner).
 */
export interface Prefer {
  respondAsync: boolean;
  waitMs: number | null;
}

/** How long a synchronous request waits: the client's `Prefer: wait`, never above `SYNC_WAIT_MS`; null when it does not. */
export function syncWaitMs(prefer: Prefer): number | null {
  return prefer.respondAsync ? null : Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs);
}
