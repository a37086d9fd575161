import { performance } from "node:perf_hooks";

/** How often the sampler looks, and how late it must run to count as the process falling behind. */
const TICK_MS = 25;
const LAG_MS = 100;

let lastLagAt = Number.NEGATIVE_INFINITY;
let sampler: NodeJS.Timeout | undefined;

/** Starts watching this process's event loop (idempotent); the deadlines that ask need it running before they start. */
export function watchEventLoopLag(): void {
  if (sampler) return;
  let expected = performance.now() + TICK_MS;
  sampler = setInterval(() => {
    const now = performance.now();
    if (now - expected > LAG_MS) lastLagAt = now;
    expected = now + TICK_MS;
  }, TICK_MS);
  sampler.unref();
}

/**
 * Whether this process's event loop fell behind (ran a timer over 100 ms late) at any moment since
 * `since` (a `performance.now()` time), `firedAt` being when the caller's own timer finally ran and
 * `dueAt` when it was due. A deadline that expires while the process is behind says nothing about
 * whoever it was waiting for: a burst of requests can keep the answer unread (or the command
 * unsent) past it.
 */
export function fellBehindSince(since: number, dueAt: number, firedAt: number): boolean {
  watchEventLoopLag();
  return firedAt - dueAt > LAG_MS || lastLagAt >= since;
}
