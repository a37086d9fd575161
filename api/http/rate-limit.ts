import type { Context, Middleware } from "koa";
import { AppError } from "../../shared/errors";
import { countRateLimitRefusal, type RateLimitReason } from "../../shared/metrics/web";
import type { Admission, RateLimitOutcome, RateLimiter, Refusal } from "../limits/rate-limiter";
import type { ExhaustedKeys } from "./exhausted-keys";
import type { V1State } from "./state";
import { describeRefusal, rateLimitHeaders, staticRateLimitHeaders } from "./rate-limit-reply";

export interface RateLimitOptions {
  /**
   * Requests whose handler awaits the verdict itself (`ctx.state.admission`) before its first
   * write, so the limiter's Redis round trip runs alongside validation and that write instead of
   * ahead of them. Every other request waits for the verdict before anything else runs.
   */
  deferVerdict?: (ctx: Context) => boolean;
  /** What a request costs (points, whether it starts runs); one point and no run by default. */
  admission?: (ctx: Context) => Admission;
  /** Told of every verdict that leaves a window used up, so the key's next requests are refused before their body is read. */
  exhaustedKeys?: ExhaustedKeys;
}

/** What a refusal is counted as in `apiary_rate_limit_refusals_total`. */
function refusalReason(refusal: Refusal): RateLimitReason {
  if (refusal.reason === "spend") return "daily_spend";
  if (refusal.reason === "open-requests")
    return refusal.scope === "key" ? "key_open_requests" : "account_open_requests";
  return refusal.scope === "key" ? "key_window" : "account_window";
}

/**
 * Counts the request against its key's and its account's minute, hour and day limits (runs after
 * authentication), sets the `X-RateLimit-*` headers on the response whatever it turns out to be,
 * and refuses with 429 and `Retry-After` once a limit is reached — or, for a request that starts
 * runs, once the account's spend of the day is used up, and for one that streams or waits, once
 * its key's or account's open-request cap is full (that refusal first; the slot is taken by the
 * same Redis script and kept in `ctx.state.openRequestSlot`). The state is left in `ctx.state.rateLimit`
 * so `GET /v1/rate/limits` reports it without counting again. Redis down → 503 from the limiter.
 *
 * A refusal outranks every other answer, as if it had been given first: a deferred request that
 * fails validation while over its limit still gets the 429.
 */
export function rateLimit(limiter: RateLimiter, options: RateLimitOptions = {}): Middleware<V1State> {
  return async (ctx, next) => {
    const owner = ctx.state.auth;
    const { tier, limits } = limiter.limitsFor(owner.tier);
    ctx.set(staticRateLimitHeaders(tier, limits));
    const admission = options.admission?.(ctx) ?? { points: 1, startsRuns: false };
    const prepaid = ctx.state.prepaidPoints ?? 0;
    const openRequests = ctx.state.openRequestSlot?.wanted;
    const rest = { ...admission, points: admission.points - prepaid, openRequests };
    // Paid in full before the body was read, and no spend to check or slot to take: the verdict is already in.
    const verdict =
      rest.points <= 0 && !rest.startsRuns && !openRequests
        ? Promise.resolve()
        : limiter.consume(owner, rest).then((outcome) => settle(ctx, outcome, options.exhaustedKeys));
    if (!options.deferVerdict?.(ctx)) {
      await verdict;
      return next();
    }
    verdict.catch(() => undefined); // awaited below (and by the handler); never an unhandled rejection meanwhile
    ctx.state.admission = verdict;
    try {
      await next();
    } catch (err) {
      await verdict;
      throw err;
    }
    await verdict;
  };
}

/**
 * Counts one point against the key's limits before a large body is read (runs after
 * authentication, ahead of the body parser): a key may announce a body of many megabytes, or a
 * compressed one that inflates to that, and reading and parsing it costs far more than the limiter.
 * Without this, a burst of such requests is read in full before the first verdict could refuse any
 * of them. The point is kept in `ctx.state.prepaidPoints`, and `rateLimit` counts only the rest (a
 * batch's further items, the spend check). A request that streams or waits takes its open-request
 * slot here too, so a full cap also refuses it unread. Small bodies go straight to the parser, with one round
 * trip to the limiter as before.
 */
export function rateLimitBeforeLargeBodies(
  limiter: RateLimiter,
  options: { largeBodyBytes: number; exhaustedKeys?: ExhaustedKeys },
): Middleware<V1State> {
  return async (ctx, next) => {
    if (!announcesLargeBody(ctx, options.largeBodyBytes)) return next();
    const owner = ctx.state.auth;
    const { tier, limits } = limiter.limitsFor(owner.tier);
    ctx.set(staticRateLimitHeaders(tier, limits));
    const openRequests = ctx.state.openRequestSlot?.wanted;
    settle(ctx, await limiter.consume(owner, { points: 1, startsRuns: false, openRequests }), options.exhaustedKeys);
    ctx.state.prepaidPoints = 1;
    return next();
  };
}

/** A body over the threshold, of a length not announced (chunked), or compressed (its length says nothing of what it inflates to). */
function announcesLargeBody(ctx: Context, largeBodyBytes: number): boolean {
  const encoding = ctx.get("content-encoding").trim().toLowerCase();
  if (encoding !== "" && encoding !== "identity") return true;
  const length = ctx.request.length;
  if (length === undefined) return ctx.get("transfer-encoding") !== "";
  return length > largeBodyBytes;
}

/**
 * Sets the verdict's headers, tells `exhaustedKeys`, keeps the open-request slot taken, and throws
 * the 429 of a refusal. A full open-request cap counted nothing and is no news about the windows:
 * its answer carries only the limits' fixed headers (set already).
 */
function settle(ctx: Context, outcome: RateLimitOutcome, exhaustedKeys: ExhaustedKeys | undefined): void {
  const state = ctx.state as V1State;
  if (outcome.lease) state.openRequestSlot?.hold(outcome.lease);
  if (outcome.refusals[0]?.reason !== "open-requests") {
    ctx.set(rateLimitHeaders(outcome.state));
    exhaustedKeys?.note(state.auth, outcome.state);
  }
  if (outcome.refusals.length > 0) {
    const refusal = describeRefusal(outcome);
    countRateLimitRefusal(refusalReason(refusal.refusal));
    ctx.set("Retry-After", String(refusal.retryAfterS));
    throw new AppError(429, "RATE_LIMITED", refusal.message);
  }
  state.rateLimit = outcome.state;
}
