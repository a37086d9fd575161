import type { Context, Middleware } from "koa";
import { AppError } from "../../shared/errors";
import { countRateLimitRefusal, type RateLimitReason } from "../../shared/metrics/web";
import type { Admission, RateLimiter, Refusal } from "../limits/rate-limiter";
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
  return refusal.scope === "key" ? "key_window" : "account_window";
}

/**
 * Counts the request against its key's and its account's minute, hour and day limits (runs after
 * authentication), sets the `X-RateLimit-*` headers on the response whatever it turns out to be,
 * and refuses with 429 and `Retry-After` once a limit is reached — or, for a request that starts
 * runs, once the account's spend of the day is used up. The state is left in `ctx.state.rateLimit`
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
    const verdict = limiter.consume(owner, options.admission?.(ctx)).then((outcome) => {
      ctx.set(rateLimitHeaders(outcome.state));
      options.exhaustedKeys?.note(owner, outcome.state);
      if (outcome.refusals.length > 0) {
        const refusal = describeRefusal(outcome);
        countRateLimitRefusal(refusalReason(refusal.refusal));
        ctx.set("Retry-After", String(refusal.retryAfterS));
        throw new AppError(429, "RATE_LIMITED", refusal.message);
      }
      ctx.state.rateLimit = outcome.state;
    });
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
