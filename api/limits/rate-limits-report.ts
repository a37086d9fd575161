import type { KeyOwner } from "../../shared/auth/api-keys";
import { WINDOWS, type RateLimiter, type RateLimitState, type RateWindow } from "./rate-limiter";

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
function presentRateLimits(state: RateLimitState, now: Date): RateLimitsResponse {
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
 * counted this request (`counted`), so reading costs nothing more; without it the counters are peeked at.
 */
export async function rateLimitsReport(
  limiter: RateLimiter,
  owner: KeyOwner,
  counted?: RateLimitState,
): Promise<RateLimitsResponse> {
  return presentRateLimits(counted ?? (await limiter.peek(owner)), new Date());
}
