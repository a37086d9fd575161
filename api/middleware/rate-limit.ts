import type { Context, Middleware } from "koa";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { AppError } from "../../shared/errors";
import { describeRefusal, rateLimitHeaders, staticRateLimitHeaders, type RateLimiter } from "../services/rate-limiter";

export interface RateLimitOptions {
  /**
   * Requests whose handler awaits the verdict itself (`ctx.state.admission`) before its first
   * write, so the limiter's Redis round trip runs alongside validation and that write instead of
   * ahead of them. Every other request waits for the verdict before anything else runs.
   */
  deferVerdict?: (ctx: Context) => boolean;
}

/**
 * Counts the request against its key's minute, hour and day limits (runs after authentication),
 * sets the `X-RateLimit-*` headers on the response whatever it turns out to be, and refuses with
 * 429 and `Retry-After` once a limit is reached. The state is left in `ctx.state.rateLimit` so
 * `GET /v1/rate/limits` reports it without counting again. Redis down → 503 from the limiter.
 *
 * A refusal outranks every other answer, as if it had been given first: a deferred request that
 * fails validation while over its limit still gets the 429.
 */
export function rateLimit(limiter: RateLimiter, options: RateLimitOptions = {}): Middleware {
  return async (ctx, next) => {
    const owner = ctx.state.auth as KeyOwner;
    const { tier, limits } = limiter.limitsFor(owner.tier);
    ctx.set(staticRateLimitHeaders(tier, limits));
    const verdict = limiter.consume(owner.apiKeyId, owner.tier).then((outcome) => {
      ctx.set(rateLimitHeaders(outcome.state));
      if (outcome.refusedBy.length > 0) {
        const refusal = describeRefusal(outcome);
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
