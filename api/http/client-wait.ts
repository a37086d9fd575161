import type { Context } from "koa";
import type { Prefer } from "../spine/prefer";
import { parsePrefer } from "./prefer-header";

/** The most of a client's time-out left for the answer's way back to it. */
const MAX_MARGIN_MS = 1_000;

/**
 * How long a client that gives up after `patienceMs` can be kept waiting: a little less (a quarter
 * of it, at most a second), so that the answer, a 504 naming the job when the run is still going,
 * reaches it before it gives up.
 */
export function waitWithin(patienceMs: number): number {
  return Math.round(patienceMs - Math.min(MAX_MARGIN_MS, patienceMs / 4));
}

/**
 * Below this, a time-out (announced, or seen when a client left) says nothing useful about the
 * client's patience: a connection that dropped at once, or a time-out no wait fits in. Its retries
 * still find the run it started; they wait as a request that said nothing would.
 */
export const MIN_PATIENCE_MS = 1_000;

/**
 * The wait that fits the time-out a client announced (`X-Stainless-Timeout: <seconds>`, which the
 * Stainless-generated SDKs, swarms-ts and openai, send for a request given its own `timeout`).
 * Null when it announced none, or under a second (`MIN_PATIENCE_MS`; the SDKs round down to 0).
 */
export function announcedWaitMs(ctx: Pick<Context, "get">): number | null {
  const header = ctx.get("x-stainless-timeout").trim();
  if (!/^\d{1,9}(\.\d+)?$/.test(header)) return null;
  const ms = Number(header) * 1_000;
  return ms >= MIN_PATIENCE_MS ? waitWithin(ms) : null;
}

/**
 * How the client wants its run request answered: its `Prefer` header, and a wait that ends before
 * the time-out it announced. A run still going then answers 504 with its `job_id` and `Location`,
 * so even a client's last attempt learns where to read it.
 */
export function clientPrefer(ctx: Pick<Context, "get">): Prefer {
  const prefer = parsePrefer(ctx.get("prefer"));
  const announced = announcedWaitMs(ctx);
  if (announced === null) return prefer;
  return { ...prefer, waitMs: Math.min(prefer.waitMs ?? announced, announced) };
}
