import type { RedisClient } from "../../shared/queues/redis";
import { config } from "../../shared/config";
import { accountSpendKey } from "../../shared/limits/shared-spend";
import { accountKeys, prefixFor, type KeyPrefix } from "../../shared/queues/shards";
import { nextUtcMidnight, utcDay } from "../../shared/limits/utc-day";
import { runAdmission, type AdmissionReply, type CounterCheck, type SlotClaim } from "./admission-script";
import type { OpenRequestLease, OpenRequestRefusal, OpenRequests } from "./open-requests";
import { RedisDeadline, rateLimitingUnavailable } from "./redis-deadline";

/** The three fixed windows every `/v1` request counts against. */
export const WINDOWS = ["minute", "hour", "day"] as const;
export type RateWindow = (typeof WINDOWS)[number];

/** Whose counter a window is: the API key's own, or the account's (all of its keys together). */
type RateScope = "key" | "account";

const WINDOW_MS: Record<RateWindow, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** One tier's allowance per key. */
export interface TierLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Reported by `GET /v1/rate/limits`; not a request limit. */
  tokensPerAgent: number;
}

/** What all keys of one account may do together: requests per window, and spend per UTC day. */
export interface AccountLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Tokens (input and output) all runs of the account may use in a UTC day. */
  dailyTokens: number;
  /** US dollars all runs of the account may cost in a UTC day. */
  dailyCost: number;
}

export interface RateLimiterOptions {
  /** Key limits by tier name; `free` is required and applies to any tier not listed. */
  tiers: { free: TierLimits } & Record<string, TierLimits>;
  /**
   * Account limits by the tier of the key making the request. A tier missing here gets its key
   * limits as account limits and no daily spend ceiling.
   */
  accounts?: Record<string, AccountLimits>;
  /** Redis key prefix of the window counters: the account shard's (`accountKeys`) in a deployment, so one script touches them all. */
  prefix: KeyPrefix;
  /** Prefix of the spend hashes workers charge (`accountSpendKey`); the account's shard prefix by default. */
  spendPrefix?: string;
  /** Longest wait for Redis before the request is refused with 503. */
  timeoutMs: number;
}

/** Who a request counts against. */
export interface RateSubject {
  apiKeyId: string;
  userId: string;
  tier: string;
}

/** What a request costs. */
export interface Admission {
  /** Points counted in every window: 1, or a batch's number of items (less what was counted before its body was read). */
  points: number;
  /** The request starts runs, so it is refused once the account's daily spend is used up. */
  startsRuns: boolean;
  /**
   * The request streams or waits for its run: it takes a slot of these caps, or is refused when
   * its key's or account's are full (checked first: that refusal outranks the windows and spend).
   */
  openRequests?: OpenRequests;
}

/** One window's counter after this request. */
export interface WindowState {
  /** Points counted in the current window, this request's included when it was admitted. */
  count: number;
  limit: number;
  remaining: number;
  /** The window's allowance is used up: the next request in it would be refused. */
  exceeded: boolean;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** A key's standing, as of one request. */
export interface RateLimitState {
  tier: string;
  limits: TierLimits;
  /** Per window, whichever of the key's and the account's counters has less room: what the key may still send. */
  windows: Record<RateWindow, WindowState>;
  scopes: Record<RateScope, Record<RateWindow, WindowState>>;
}

/** Why a request was refused. */
export type Refusal =
  | { reason: "window"; scope: RateScope; window: RateWindow; points: number; state: WindowState }
  | { reason: "spend"; measure: "tokens" | "cost"; spent: number; ceiling: number; resetMs: number }
  | ({ reason: "open-requests" } & OpenRequestRefusal);

/**
 * What `consume` decided: the state, and every reason the request was refused (empty when
 * admitted; a full open-request cap alone, as it outranks the rest), and the open-request slot
 * taken when one was asked for and the request admitted.
 */
export interface RateLimitOutcome {
  state: RateLimitState;
  refusals: Refusal[];
  lease?: OpenRequestLease;
}

/** Per-key and per-account, per-tier request limits over minute, hour and day windows, kept in Redis. */
export interface RateLimiter {
  /** Counts the request's points in every window (and takes its open-request slot), or refuses it counting and taking nothing. Throws 503 when Redis does not answer in time. */
  consume(subject: RateSubject, admission?: Admission): Promise<RateLimitOutcome>;
  /** The current state without counting anything. Throws 503 when Redis does not answer in time. */
  peek(subject: RateSubject): Promise<RateLimitState>;
  /** The tier whose limits apply (unknown tiers fall back to `free`), its key limits and its account limits. */
  limitsFor(tier: string): { tier: string; limits: TierLimits; account: AccountLimits };
}

/** The limiter's settings from the process configuration. */
function rateLimiterOptionsFromConfig(): RateLimiterOptions {
  return {
    tiers: config.rateLimits.tiers,
    accounts: config.accountLimits.tiers,
    prefix: accountKeys("rl"),
    timeoutMs: config.rateLimits.redisTimeoutMs,
  };
}

function windowLimit(limits: { perMinute: number; perHour: number; perDay: number }, window: RateWindow): number {
  return window === "minute" ? limits.perMinute : window === "hour" ? limits.perHour : limits.perDay;
}

function windowState(limit: number, count: number, resetMs: number): WindowState {
  return {
    count,
    limit,
    remaining: Math.max(limit - count, 0),
    exceeded: count >= limit,
    resetMs: Math.max(resetMs, 0),
  };
}

/**
 * Fixed windows counted by one atomic Redis script per request (see `admission-script.ts`): one
 * round trip decides and counts the key's and the account's windows together, and takes the
 * request's open-request slot when it asks for one. The counters are shared by all tiers (only
 * the limits differ), so a key that changes tier keeps its counts. Each check has a deadline
 * (`redis-deadline.ts`).
 */
class RedisRateLimiter implements RateLimiter {
  private readonly deadline: RedisDeadline;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: RateLimiterOptions,
  ) {
    this.deadline = new RedisDeadline(options.timeoutMs);
  }

  limitsFor(tier: string): { tier: string; limits: TierLimits; account: AccountLimits } {
    const known = Object.hasOwn(this.options.tiers, tier) ? tier : "free";
    const limits = this.options.tiers[known];
    const accounts = this.options.accounts;
    const account =
      accounts && Object.hasOwn(accounts, known)
        ? accounts[known]
        : { ...limits, dailyTokens: Infinity, dailyCost: Infinity };
    return { tier: known, limits, account };
  }

  async consume(
    subject: RateSubject,
    admission: Admission = { points: 1, startsRuns: false },
  ): Promise<RateLimitOutcome> {
    const points = Math.max(0, Math.floor(admission.points));
    const slot = admission.openRequests?.claim(subject);
    const { reply, state, account } = await this.admit(subject, points, admission.startsRuns, slot);
    if (reply.admitted) return { state, refusals: [], lease: slot && admission.openRequests?.hold(slot) };
    if (slot && (reply.slot === "key-full" || reply.slot === "account-full")) {
      const refusal: Refusal =
        reply.slot === "key-full"
          ? { reason: "open-requests", scope: "key", limit: slot.perKey, tier: slot.tier }
          : { reason: "open-requests", scope: "account", limit: slot.perAccount, tier: slot.tier };
      return { state, refusals: [refusal] };
    }
    const refusals: Refusal[] = [];
    for (const scope of ["key", "account"] as const) {
      for (const window of WINDOWS) {
        const w = state.scopes[scope][window];
        if (w.count + points > w.limit) refusals.push({ reason: "window", scope, window, points, state: w });
      }
    }
    if (admission.startsRuns) {
      const now = new Date();
      const resetMs = nextUtcMidnight(now).getTime() - now.getTime();
      if (reply.spent.tokens >= account.dailyTokens)
        refusals.push({
          reason: "spend",
          measure: "tokens",
          spent: reply.spent.tokens,
          ceiling: account.dailyTokens,
          resetMs,
        });
      else if (reply.spent.cost >= account.dailyCost)
        refusals.push({
          reason: "spend",
          measure: "cost",
          spent: reply.spent.cost,
          ceiling: account.dailyCost,
          resetMs,
        });
    }
    return { state, refusals };
  }

  async peek(subject: RateSubject): Promise<RateLimitState> {
    return (await this.admit(subject, 0, false)).state;
  }

  private async admit(
    subject: RateSubject,
    points: number,
    startsRuns: boolean,
    slot?: SlotClaim,
  ): Promise<{ reply: AdmissionReply; state: RateLimitState; account: AccountLimits }> {
    if (this.redis.status !== "ready") throw rateLimitingUnavailable();
    const { tier, limits, account } = this.limitsFor(subject.tier);
    const prefix = prefixFor(this.options.prefix, subject.userId);
    const counters: CounterCheck[] = [
      ...WINDOWS.map((w) => ({
        key: `${prefix}:key:${w}:${subject.apiKeyId}`,
        limit: windowLimit(limits, w),
        windowMs: WINDOW_MS[w],
      })),
      ...WINDOWS.map((w) => ({
        key: `${prefix}:account:${w}:${subject.userId}`,
        limit: windowLimit(account, w),
        windowMs: WINDOW_MS[w],
      })),
    ];
    const spendKey = accountSpendKey(subject.userId, utcDay(new Date()), this.options.spendPrefix);
    const spendCeiling = startsRuns ? { tokens: account.dailyTokens, cost: account.dailyCost } : null;
    const reply = await this.deadline.bounded(
      runAdmission(this.redis, { counters, spendKey, points, spendCeiling, slot }),
    );
    const scopes = { key: {}, account: {} } as Record<RateScope, Record<RateWindow, WindowState>>;
    counters.forEach((counter, i) => {
      const window = WINDOWS[i % 3];
      const resetMs = reply.resetMs[i] >= 0 ? reply.resetMs[i] : counter.windowMs;
      scopes[i < 3 ? "key" : "account"][window] = windowState(counter.limit, reply.counts[i], resetMs);
    });
    const windows = {} as Record<RateWindow, WindowState>;
    for (const w of WINDOWS)
      windows[w] = scopes.account[w].remaining < scopes.key[w].remaining ? scopes.account[w] : scopes.key[w];
    return { reply, state: { tier, limits, windows, scopes }, account };
  }
}

/** A rate limiter on a fail-fast Redis client (`createRedis("request")`), with the config's limits by default. */
export function createRateLimiter(
  redis: RedisClient,
  options: RateLimiterOptions = rateLimiterOptionsFromConfig(),
): RateLimiter {
  return new RedisRateLimiter(redis, options);
}
