import type { Middleware } from "koa";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { AppError } from "../../shared/errors";
import { describeRefusal, rateLimitHeaders, staticRateLimitHeaders, type RateLimiter } from "../services/rate-limiter";

/**
 * Counts the request against its key's minute, hour and day limits (runs after authentication),
 * sets the `X-RateLimit-*` headers on the response whatever it turns out to be, and refuses with
 * 429 and `Retry-After` once a limit is reached. The state is left in `ctx.state.rateLimit` so
 * `GET /v1/rate/limits` reports it without counting again. Redis down → 503 from the limiter.
 */
export function rateLimit(limiter: RateLimiter): Middleware {
  return async (ctx, next) => {
    const owner = ctx.state.auth as KeyOwner;
    const { tier, limits } = limiter.limitsFor(owner.tier);
    ctx.set(staticRateLimitHeaders(tier, limits));
    const outcome = await limiter.consume(owner.apiKeyId, owner.tier);
    ctx.set(rateLimitHeaders(outcome.state));
    if (outcome.refusedBy.length > 0) {
      const refusal = describeRefusal(outcome);
      ctx.set("Retry-After", String(refusal.retryAfterS));
      throw new AppError(429, "RATE_LIMITED", refusal.message);
    }
    ctx.state.rateLimit = outcome.state;
    await next();
  };
}
