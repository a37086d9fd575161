import { count, defineDomain, money, ms, num, optionalNum } from "./setting";

const accountWindow = (window: string, tier: string) =>
  optionalNum(count, `requests per ${window} for all keys of one \`${tier}\` account together`);

const openRequests = (whose: string) =>
  `streams and waiting synchronous run requests ${whose} may hold open at once (all web processes together)`;

/**
 * Requests per API key and per account, the daily token and dollar budgets of an account, and the
 * streams and waits a key and an account may hold open at once.
 */
export const rateLimits = defineDomain(
  "Rate limits and account budgets",
  {
    RATE_LIMIT_FREE_PER_MINUTE: num(
      count.default(100),
      "requests per minute per API key of the `free` tier (and of any tier not listed)",
    ),
    RATE_LIMIT_FREE_PER_HOUR: num(count.default(1_000), "requests per hour per `free` API key"),
    RATE_LIMIT_FREE_PER_DAY: num(count.default(1_200), "requests per day per `free` API key"),
    RATE_LIMIT_PREMIUM_PER_MINUTE: num(count.default(2_000), "requests per minute per `premium` API key"),
    RATE_LIMIT_PREMIUM_PER_HOUR: num(count.default(10_000), "requests per hour per `premium` API key"),
    RATE_LIMIT_PREMIUM_PER_DAY: num(count.default(100_000), "requests per day per `premium` API key"),
    RATE_LIMIT_FREE_TOKENS_PER_AGENT: num(
      count.default(200_000),
      "`tokens_per_agent` reported by `GET /v1/rate/limits` to `free` keys",
    ),
    RATE_LIMIT_PREMIUM_TOKENS_PER_AGENT: num(
      count.default(2_000_000),
      "`tokens_per_agent` reported by `GET /v1/rate/limits` to `premium` keys",
    ),
    RATE_LIMIT_REDIS_TIMEOUT_MS: num(
      ms.default(1_000),
      "longest wait for the rate limiter's Redis before a request is refused with 503",
    ),
    RATE_LIMIT_ACCOUNT_FREE_PER_MINUTE: accountWindow("minute", "free"),
    RATE_LIMIT_ACCOUNT_FREE_PER_HOUR: accountWindow("hour", "free"),
    RATE_LIMIT_ACCOUNT_FREE_PER_DAY: accountWindow("day", "free"),
    RATE_LIMIT_ACCOUNT_PREMIUM_PER_MINUTE: accountWindow("minute", "premium"),
    RATE_LIMIT_ACCOUNT_PREMIUM_PER_HOUR: accountWindow("hour", "premium"),
    RATE_LIMIT_ACCOUNT_PREMIUM_PER_DAY: accountWindow("day", "premium"),
    ACCOUNT_DAILY_TOKENS_FREE: num(
      count.default(10_000_000),
      "tokens all runs of a `free` account may use per UTC day",
    ),
    ACCOUNT_DAILY_TOKENS_PREMIUM: num(
      count.default(500_000_000),
      "tokens all runs of a `premium` account may use per UTC day",
    ),
    ACCOUNT_DAILY_COST_FREE: num(
      money.default(100),
      "dollars (LLM token cost) all runs of a `free` account may cost per UTC day",
    ),
    ACCOUNT_DAILY_COST_PREMIUM: num(
      money.default(5_000),
      "dollars (LLM token cost) all runs of a `premium` account may cost per UTC day",
    ),
    MAX_KEYS_PER_ACCOUNT: num(count.default(10), "most active API keys one account may hold"),
    OPEN_REQUESTS_FREE_PER_KEY: num(count.default(20), openRequests("one `free` API key")),
    OPEN_REQUESTS_FREE_PER_ACCOUNT: num(count.default(50), openRequests("one `free` account (all its keys)")),
    OPEN_REQUESTS_PREMIUM_PER_KEY: num(count.default(500), openRequests("one `premium` API key")),
    OPEN_REQUESTS_PREMIUM_PER_ACCOUNT: num(count.default(1_000), openRequests("one `premium` account (all its keys)")),
  },
  (env) => {
    const free = {
      perMinute: env("RATE_LIMIT_FREE_PER_MINUTE"),
      perHour: env("RATE_LIMIT_FREE_PER_HOUR"),
      perDay: env("RATE_LIMIT_FREE_PER_DAY"),
    };
    const premium = {
      perMinute: env("RATE_LIMIT_PREMIUM_PER_MINUTE"),
      perHour: env("RATE_LIMIT_PREMIUM_PER_HOUR"),
      perDay: env("RATE_LIMIT_PREMIUM_PER_DAY"),
    };
    return {
      /** Requests per key and window, by the key's tier (unknown tiers get `free`). */
      rateLimits: {
        tiers: {
          free: { ...free, tokensPerAgent: env("RATE_LIMIT_FREE_TOKENS_PER_AGENT") },
          premium: { ...premium, tokensPerAgent: env("RATE_LIMIT_PREMIUM_TOKENS_PER_AGENT") },
        },
        redisTimeoutMs: env("RATE_LIMIT_REDIS_TIMEOUT_MS"),
      },
      /**
       * What all keys of one account may do together, by the tier of the key making the request:
       * requests per window (the key limits unless set) and tokens and dollars per UTC day.
       */
      accountLimits: {
        maxKeys: env("MAX_KEYS_PER_ACCOUNT"),
        tiers: {
          free: {
            perMinute: env("RATE_LIMIT_ACCOUNT_FREE_PER_MINUTE") ?? free.perMinute,
            perHour: env("RATE_LIMIT_ACCOUNT_FREE_PER_HOUR") ?? free.perHour,
            perDay: env("RATE_LIMIT_ACCOUNT_FREE_PER_DAY") ?? free.perDay,
            dailyTokens: env("ACCOUNT_DAILY_TOKENS_FREE"),
            dailyCost: env("ACCOUNT_DAILY_COST_FREE"),
          },
          premium: {
            perMinute: env("RATE_LIMIT_ACCOUNT_PREMIUM_PER_MINUTE") ?? premium.perMinute,
            perHour: env("RATE_LIMIT_ACCOUNT_PREMIUM_PER_HOUR") ?? premium.perHour,
            perDay: env("RATE_LIMIT_ACCOUNT_PREMIUM_PER_DAY") ?? premium.perDay,
            dailyTokens: env("ACCOUNT_DAILY_TOKENS_PREMIUM"),
            dailyCost: env("ACCOUNT_DAILY_COST_PREMIUM"),
          },
        },
      },
      /** Streams and synchronous waits a key and its account may hold open at once, by the key's tier. */
      openRequests: {
        free: { perKey: env("OPEN_REQUESTS_FREE_PER_KEY"), perAccount: env("OPEN_REQUESTS_FREE_PER_ACCOUNT") },
        premium: {
          perKey: env("OPEN_REQUESTS_PREMIUM_PER_KEY"),
          perAccount: env("OPEN_REQUESTS_PREMIUM_PER_ACCOUNT"),
        },
      },
    };
  },
);
