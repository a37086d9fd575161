import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "../../shared/config";
import { ServiceUnavailableError } from "../../shared/errors";

/** The three fixed windows every `/v1` request counts against. */
export const WINDOWS = ["minute", "hour", "day"] as const;
export type RateWindow = (typeof WINDOWS)[number];

const WINDOW_SECONDS: Record<RateWindow, number> = { minute: 60, hour: 3_600, day: 86_400 };

/** One tier's allowance. */
export interface TierLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Reported by `GET /v1/rate/limits`; not a request limit. */
  tokensPerAgent: number;
}

export interface RateLimiterOptions {
  /** Limits by tier name; `free` is required and applies to any tier not listed. */
  tiers: { free: TierLimits } & Record<string, TierLimits>;
  /** Redis key prefix; each window adds `:<window>:<api key id>`. */
  prefix: string;
  /** Longest wait for Redis before the request is refused with 503. */
  timeoutMs: number;
}

/** One window's counter after this request. */
export interface WindowState {
  /** Requests counted in the current window, this one included. */
  count: number;
  limit: number;
  remaining: number;
  /** The window's allowance is used up: the next request in it would be refused. */
  exceeded: boolean;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** A key's standing in every window, as of one request. */
export interface RateLimitState {
  tier: string;
  limits: TierLimits;
  windows: Record<RateWindow, WindowState>;
}

/** What `consume` decided: the state, and the windows that refused the request (empty when allowed). */
export interface RateLimitOutcome {
  state: RateLimitState;
  refusedBy: RateWindow[];
}

/** Per-key, per-tier request limits over minute, hour and day windows, kept in Redis. */
export interface RateLimiter {
  /** Counts one request in every window. Throws 503 when Redis does not answer in time. */
  consume(apiKeyId: string, tier: string): Promise<RateLimitOutcome>;
  /** The current state without counting anything. Throws 503 when Redis does not answer in time. */
  peek(apiKeyId: string, tier: string): Promise<RateLimitState>;
  /** The tier whose limits apply (unknown tiers fall back to `free`) and those limits. */
  limitsFor(tier: string): { tier: string; limits: TierLimits };
}

/** The limiter's settings from the process configuration. */
export function rateLimiterOptionsFromConfig(): RateLimiterOptions {
  return { tiers: config.rateLimits.tiers, prefix: `${config.queue.prefix}:rl`, timeoutMs: config.rateLimits.redisTimeoutMs };
}

function windowLimit(limits: TierLimits, window: RateWindow): number {
  return window === "minute" ? limits.perMinute : window === "hour" ? limits.perHour : limits.perDay;
}

function windowState(limit: number, count: number, resetMs: number): WindowState {
  return { count, limit, remaining: Math.max(limit - count, 0), exceeded: count >= limit, resetMs: Math.max(resetMs, 0) };
}

/**
 * Fixed windows with `rate-limiter-flexible`'s atomic Redis script (one EVALSHA per window). The three
 * windows of a request are sent together, so a request costs one network round trip to Redis.
 * The counters are shared by all tiers (only the limits differ), so a key that changes tier keeps
 * its counts.
 */
class RedisRateLimiter implements RateLimiter {
  private readonly byTier = new Map<string, Record<RateWindow, RateLimiterRedis>>();

  constructor(redis: Redis, private readonly options: RateLimiterOptions) {
    for (const [tier, limits] of Object.entries(options.tiers)) {
      const limiters = {} as Record<RateWindow, RateLimiterRedis>;
      for (const window of WINDOWS) {
        limiters[window] = new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${options.prefix}:${window}`,
          points: windowLimit(limits, window),
          duration: WINDOW_SECONDS[window],
          // A client that is not connected refuses at once instead of queueing the command.
          rejectIfRedisNotReady: true,
        });
      }
      this.byTier.set(tier, limiters);
    }
  }

  limitsFor(tier: string): { tier: string; limits: TierLimits } {
    const known = Object.hasOwn(this.options.tiers, tier) ? tier : "free";
    return { tier: known, limits: this.options.tiers[known] };
  }

  async consume(apiKeyId: string, tierName: string): Promise<RateLimitOutcome> {
    const { tier, limits } = this.limitsFor(tierName);
    const limiters = this.byTier.get(tier)!;
    const results = await this.bounded(
      Promise.all(
        WINDOWS.map((window) =>
          limiters[window].consume(apiKeyId).then(
            (res) => ({ window, res, refused: false }),
            (err: unknown) => {
              // The library rejects with the counter itself when the limit is exceeded.
              if (err instanceof RateLimiterRes) return { window, res: err, refused: true };
              throw err;
            },
          ),
        ),
      ),
    );
    const refusedBy = results.filter((r) => r.refused).map((r) => r.window);
    if (refusedBy.length > 0) {
      // A refused request does not count against the windows that still had room, so a client
      // retrying too fast within a minute does not also burn its hourly and daily allowance.
      // Off the response path: a failed refund only costs the client one request.
      for (const r of results) if (!r.refused) limiters[r.window].reward(apiKeyId, 1).catch(() => undefined);
    }
    const windows = {} as Record<RateWindow, WindowState>;
    for (const { window, res, refused } of results) {
      const count = refusedBy.length > 0 && !refused ? res.consumedPoints - 1 : res.consumedPoints;
      windows[window] = windowState(limiters[window].points, count, res.msBeforeNext);
    }
    return { state: { tier, limits, windows }, refusedBy };
  }

  async peek(apiKeyId: string, tierName: string): Promise<RateLimitState> {
    const { tier, limits } = this.limitsFor(tierName);
    const limiters = this.byTier.get(tier)!;
    const results = await this.bounded(Promise.all(WINDOWS.map((window) => limiters[window].get(apiKeyId))));
    const windows = {} as Record<RateWindow, WindowState>;
    WINDOWS.forEach((window, i) => {
      const res = results[i];
      windows[window] = windowState(limiters[window].points, res?.consumedPoints ?? 0, res ? res.msBeforeNext : WINDOW_SECONDS[window] * 1_000);
    });
    return { tier, limits, windows };
  }

  /**
   * Redis errors and slow answers both become a quick 503, never a hang or a 500. When the timer
   * fires, the answer gets one more turn of the event loop: after a stretch of CPU-bound work
   * (a large body being validated) timers run before pending socket reads, and an answer that had
   * long arrived would otherwise count as Redis not answering.
   */
  private async bounded<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => setImmediate(() => reject(new Error("timed out"))), this.options.timeoutMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } catch {
      throw new ServiceUnavailableError("Rate limiting is unavailable (Redis is not answering); try again shortly");
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A rate limiter on a fail-fast Redis client (`createRedis("request")`), with the config's limits by default. */
export function createRateLimiter(redis: Redis, options: RateLimiterOptions = rateLimiterOptionsFromConfig()): RateLimiter {
  return new RedisRateLimiter(redis, options);
}

/** The `X-RateLimit-*` headers of a response. `X-RateLimit-Reset` is seconds until the minute window resets. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { minute, hour, day } = state.windows;
  return {
    "X-RateLimit-Limit-Minute": String(minute.limit),
    "X-RateLimit-Remaining-Minute": String(minute.remaining),
    "X-RateLimit-Limit-Hour": String(hour.limit),
    "X-RateLimit-Remaining-Hour": String(hour.remaining),
    "X-RateLimit-Limit-Day": String(day.limit),
    "X-RateLimit-Remaining-Day": String(day.remaining),
    "X-RateLimit-Reset": String(Math.ceil(minute.resetMs / 1_000)),
    "X-RateLimit-Tier": state.tier,
  };
}

/** The limit headers that need no Redis answer (used when Redis is down). */
export function staticRateLimitHeaders(tier: string, limits: TierLimits): Record<string, string> {
  return {
    "X-RateLimit-Limit-Minute": String(limits.perMinute),
    "X-RateLimit-Limit-Hour": String(limits.perHour),
    "X-RateLimit-Limit-Day": String(limits.perDay),
    "X-RateLimit-Tier": tier,
  };
}

/**
 * Why a request was refused: the refusing window that resets last (waiting for it clears every
 * other one too), the message naming it, and `Retry-After` in whole seconds (at least 1).
 */
export function describeRefusal(outcome: RateLimitOutcome): { window: RateWindow; retryAfterS: number; message: string } {
  const { state, refusedBy } = outcome;
  const window = refusedBy.reduce((a, b) => (state.windows[b].resetMs > state.windows[a].resetMs ? b : a));
  const retryAfterS = Math.max(1, Math.ceil(state.windows[window].resetMs / 1_000));
  const message = `Rate limit exceeded: ${state.windows[window].limit} requests per ${window} for the ${state.tier} tier; retry in ${retryAfterS} s`;
  return { window, retryAfterS, message };
}
