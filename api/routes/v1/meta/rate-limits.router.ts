import Router from "@koa/router";
import type { V1State } from "../../../http/state";
import { documentRoutes } from "../../../openapi/operation";
import { rateLimitsResponseSchema } from "../../../schemas/meta-response.schema";
import { WINDOWS, type RateLimiter, type RateLimitState, type RateWindow } from "../../../limits/rate-limiter";

interface WindowReport {
  count: number;
  limit: number;
  remaining: number;
  exceeded: boolean;
  reset_time: string;
}

/** `GET /v1/rate/limits` response body. */
export interface RateLimitsResponse {
  success: true;
  tier: string;
  timestamp: string;
  limits: {
    maximum_requests_per_minute: number;
    maximum_requests_per_hour: number;
    maximum_requests_per_day: number;
    tokens_per_agent: number;
  };
  rate_limits: Record<RateWindow, WindowReport>;
}

/** The hosted API's rate-limit report from a limiter state. */
export function presentRateLimits(state: RateLimitState, now: Date): RateLimitsResponse {
  const rateLimits = {} as Record<RateWindow, WindowReport>;
  for (const window of WINDOWS) {
    const w = state.windows[window];
    rateLimits[window] = {
      count: w.count,
      limit: w.limit,
      remaining: w.remaining,
      exceeded: w.exceeded,
      reset_time: new Date(now.getTime() + w.resetMs).toISOString(),
    };
  }
  return {
    success: true,
    tier: state.tier,
    timestamp: now.toISOString(),
    limits: {
      maximum_requests_per_minute: state.limits.perMinute,
      maximum_requests_per_hour: state.limits.perHour,
      maximum_requests_per_day: state.limits.perDay,
      tokens_per_agent: state.limits.tokensPerAgent,
    },
    rate_limits: rateLimits,
  };
}

/**
 * `GET /v1/rate/limits`: the caller's limits and counts. The rate-limit middleware has already
 * counted this request and left the state in `ctx.state.rateLimit`, so reading costs nothing more;
 * without that middleware in front it peeks at the counters instead.
 */
export function rateLimitsRouter(limiter: RateLimiter): Router {
  const router = new Router<V1State>();
  router.get("/v1/rate/limits", async (ctx) => {
    const state: RateLimitState = ctx.state.rateLimit ?? (await limiter.peek(ctx.state.auth));
    ctx.body = presentRateLimits(state, new Date());
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/rate/limits",
    summary: "Your key's rate limits and counts",
    description:
      "This request counts too, like any other; a batch counts one per item. Every key of an account also counts against the account's windows: each window reports whichever of the two has less room.",
    tags: ["Account"],
    access: "apiKey",
    responses: {
      200: { description: "The tier's limits and the counts of each window", body: rateLimitsResponseSchema },
    },
  });
}
