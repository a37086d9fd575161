import Joi from "joi";
import dotenv from "dotenv";
import { parseEgressAllow } from "./net/egress-allow";

/**
 * Every setting of the service, read from the environment (plus an optional `.env`) and validated
 * once. Nothing else in the code base reads `process.env`: it imports `config` from here.
 */

const port = Joi.number().integer().min(0).max(65535);
const ms = Joi.number().integer().min(1);
const money = Joi.number().min(0);
const optionalString = Joi.string().allow("").optional();

/**
 * Redis Cluster keeps a key in the slot its hash tag (the text inside the first `{…}`) picks;
 * BullMQ's scripts touch several keys of a queue at once, and those must share one slot. Every key
 * the service writes starts with the prefix, so a prefix that opens with a non-empty tag is enough.
 */
const HASH_TAGGED = /^[^{]*\{[^}]+\}/;

/** `redis://[user:password@]host:port` seed URLs of a Redis Cluster, comma-separated. */
const clusterNodes = Joi.string()
  .allow("")
  .custom((value: string, helpers) => {
    const parts = value
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const invalid = parts.some(
      (part) =>
        Joi.string()
          .uri({ scheme: ["redis", "rediss"] })
          .validate(part).error,
    );
    // The message names no node: a URL may carry the cluster's password.
    return invalid
      ? helpers.message({ custom: '"REDIS_CLUSTER_NODES" must be comma-separated redis:// or rediss:// URLs' })
      : value;
  })
  .optional();

/** Comma-separated `host`, `host:port` or CIDR entries (see `parseEgressAllow`). */
const egressAllow = Joi.string()
  .allow("")
  .custom((value: string, helpers) => {
    try {
      parseEgressAllow(value);
      return value;
    } catch (err) {
      return helpers.message({ custom: `"EGRESS_ALLOW" ${(err as Error).message}` });
    }
  })
  .default("");
/** HS256 wants a key at least as long as its 32-byte hash; a shorter one can be guessed offline from any token. */
const MIN_SESSION_SECRET_BYTES = 32;

const sessionSecret = Joi.string()
  .allow("")
  .custom((value: string, helpers) =>
    Buffer.byteLength(value, "utf8") >= MIN_SESSION_SECRET_BYTES
      ? value
      : helpers.message({
          custom: `"SESSION_JWT_SECRET" must be at least ${MIN_SESSION_SECRET_BYTES} bytes (e.g. \`openssl rand -base64 48\`)`,
        }),
  )
  .optional();

/**
 * `SESSION_JWT_ISSUER` / `SESSION_JWT_AUDIENCE`: required in production whenever session tokens are
 * accepted, so a token the identity backend minted for another service cannot sign anyone in here.
 */
const sessionClaim = (name: string) => {
  const required = Joi.string()
    .required()
    .messages({
      "any.required": `"${name}" is required in production when session tokens are accepted (SESSION_JWT_SECRET or SESSION_JWKS_URL is set)`,
    });
  const optional = Joi.string().allow("").optional();
  return Joi.when("NODE_ENV", {
    is: "production",
    then: Joi.when("SESSION_JWT_SECRET", {
      is: Joi.string().min(1).required(),
      then: required,
      otherwise: Joi.when("SESSION_JWKS_URL", { is: Joi.exist(), then: required, otherwise: optional }),
    }),
    otherwise: optional,
  });
};

/** Environment variable → rule (with its default). The README's configuration table mirrors this. */
const envSchema = Joi.object({
  NODE_ENV: Joi.string().valid("development", "test", "production").default("development"),
  HOST: Joi.string().default("127.0.0.1"),
  PORT: port.default(8080),
  PLATFORM_PORT: port.default(8081),
  PUBLIC_BASE_URL: Joi.string().uri().optional(),
  PLATFORM_URL: Joi.string().uri().optional(),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ["postgres", "postgresql"] })
    .default("postgres://apiary:apiary@127.0.0.1:5432/apiary"),
  DATABASE_POOL_SIZE: Joi.number().integer().min(1).default(20),
  REDIS_URL: Joi.string()
    .uri({ scheme: ["redis", "rediss"] })
    .default("redis://127.0.0.1:6379/0"),
  REDIS_CLUSTER_NODES: clusterNodes,
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9_{}:-]+$/)
    .pattern(HASH_TAGGED, "Redis Cluster hash tag")
    .messages({
      "string.pattern.name":
        '"QUEUE_PREFIX" must start with a Redis Cluster hash tag such as {apiary}, so that all keys of a queue share one slot',
    })
    .default("{apiary}"),
  LOG_LEVEL: Joi.string().valid("fatal", "error", "warn", "info", "debug", "trace", "silent").default("info"),
  BODY_LIMIT: Joi.string()
    .pattern(/^\d+(kb|mb)$/i)
    .default("10mb"),
  SYNC_WAIT_MS: ms.default(300_000),
  SHUTDOWN_TIMEOUT_MS: ms.default(15_000),
  JOB_ATTEMPTS: Joi.number().integer().min(1).max(20).default(3),
  JOB_KEEP_COMPLETED_S: Joi.number().integer().min(60).default(3_600),
  JOB_KEEP_COMPLETED_COUNT: Joi.number().integer().min(100).default(20_000),
  WORKER_CONCURRENCY_AGENT: Joi.number().integer().min(1).default(50),
  WORKER_CONCURRENCY_SWARM: Joi.number().integer().min(1).default(20),
  WORKER_CONCURRENCY_CHAIN: Joi.number().integer().min(1).default(4),
  WORKER_LOCK_MS: ms.min(1_000).default(30_000),
  WORKER_STALLED_INTERVAL_MS: ms.min(500).default(30_000),
  // Below the 10 s that `docker stop` and `npm start` give a process before SIGKILL, leaving time to hand jobs back.
  WORKER_DRAIN_MS: Joi.number().integer().min(0).default(8_000),
  ADMIN_USER: Joi.string().default("admin"),
  ADMIN_PASSWORD: Joi.when("NODE_ENV", {
    is: "production",
    then: Joi.string().min(8).required(),
    otherwise: Joi.string().min(8).default("apiary-dev-admin"),
  }),
  SECRETS_KEY: Joi.when("NODE_ENV", {
    is: "production",
    then: Joi.string().min(32).required(),
    otherwise: Joi.string().min(16).default("apiary-development-secrets-key-not-for-production"),
  }),
  DEFAULT_MODEL: Joi.string().default("gpt-4.1"),
  DEFAULT_WORKER_MODEL: Joi.string().default("claude-sonnet-4-20250514"),
  LLM_TIMEOUT_MS: ms.default(120_000),
  LLM_MAX_RETRIES: Joi.number().integer().min(0).max(10).default(3),
  LLM_RETRY_BASE_MS: ms.default(500),
  LLM_RETRY_MAX_DELAY_MS: ms.default(20_000),
  LLM_BASE_URL: Joi.string().uri().optional(),
  LLM_API_KEY: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: Joi.string().uri().default("https://api.openai.com/v1"),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: Joi.string().uri().default("https://api.anthropic.com/v1"),
  GROQ_API_KEY: optionalString,
  GROQ_BASE_URL: Joi.string().uri().default("https://api.groq.com/openai/v1"),
  OPENROUTER_API_KEY: optionalString,
  OPENROUTER_BASE_URL: Joi.string().uri().default("https://openrouter.ai/api/v1"),
  TOGETHER_API_KEY: optionalString,
  TOGETHER_BASE_URL: Joi.string().uri().default("https://api.together.xyz/v1"),
  DEEPSEEK_API_KEY: optionalString,
  DEEPSEEK_BASE_URL: Joi.string().uri().default("https://api.deepseek.com/v1"),
  MISTRAL_API_KEY: optionalString,
  MISTRAL_BASE_URL: Joi.string().uri().default("https://api.mistral.ai/v1"),
  XAI_API_KEY: optionalString,
  XAI_BASE_URL: Joi.string().uri().default("https://api.x.ai/v1"),
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: Joi.string().uri().default("https://generativelanguage.googleapis.com/v1beta/openai"),
  OLLAMA_BASE_URL: Joi.string().uri().default("http://127.0.0.1:11434/v1"),
  VLLM_BASE_URL: Joi.string().uri().default("http://127.0.0.1:8000/v1"),
  LMSTUDIO_BASE_URL: Joi.string().uri().default("http://127.0.0.1:1234/v1"),
  RUN_MAX_SECONDS: Joi.number().integer().min(1).default(900),
  RUN_MAX_TOKENS_FREE: Joi.number().integer().min(1).default(2_000_000),
  RUN_MAX_TOKENS_PREMIUM: Joi.number().integer().min(1).default(20_000_000),
  RUN_MAX_COST_FREE: money.default(25),
  RUN_MAX_COST_PREMIUM: money.default(250),
  MAX_BATCH_SIZE: Joi.number().integer().min(1).max(10_000).default(100),
  SWARM_MAX_PARALLEL: Joi.number().integer().min(1).max(1_000).default(32),
  FLEX_TOKEN_DISCOUNT: Joi.number().min(0).max(1).default(0.25),
  PRICE_INPUT_PER_MTOK: money.default(6.5),
  PRICE_OUTPUT_PER_MTOK: money.default(18.5),
  PRICE_PER_AGENT: money.default(0.01),
  PRICE_PER_IMAGE: money.default(0.25),
  PRICE_PER_MCP_CALL: money.default(0.1),
  NIGHT_DISCOUNT: Joi.number().min(0).max(1).default(0.5),
  NIGHT_TIMEZONE: Joi.string().default("America/Los_Angeles"),
  NIGHT_START_HOUR: Joi.number().integer().min(0).max(23).default(20),
  NIGHT_END_HOUR: Joi.number().integer().min(0).max(23).default(6),
  RATE_LIMIT_FREE_PER_MINUTE: Joi.number().integer().min(1).default(100),
  RATE_LIMIT_FREE_PER_HOUR: Joi.number().integer().min(1).default(1_000),
  RATE_LIMIT_FREE_PER_DAY: Joi.number().integer().min(1).default(1_200),
  RATE_LIMIT_PREMIUM_PER_MINUTE: Joi.number().integer().min(1).default(2_000),
  RATE_LIMIT_PREMIUM_PER_HOUR: Joi.number().integer().min(1).default(10_000),
  RATE_LIMIT_PREMIUM_PER_DAY: Joi.number().integer().min(1).default(100_000),
  RATE_LIMIT_FREE_TOKENS_PER_AGENT: Joi.number().integer().min(1).default(200_000),
  RATE_LIMIT_PREMIUM_TOKENS_PER_AGENT: Joi.number().integer().min(1).default(2_000_000),
  RATE_LIMIT_REDIS_TIMEOUT_MS: ms.default(1_000),
  EGRESS_ALLOW: egressAllow,
  // Unset: an account may make as many requests as one of its keys (the key limits above).
  RATE_LIMIT_ACCOUNT_FREE_PER_MINUTE: Joi.number().integer().min(1).optional(),
  RATE_LIMIT_ACCOUNT_FREE_PER_HOUR: Joi.number().integer().min(1).optional(),
  RATE_LIMIT_ACCOUNT_FREE_PER_DAY: Joi.number().integer().min(1).optional(),
  RATE_LIMIT_ACCOUNT_PREMIUM_PER_MINUTE: Joi.number().integer().min(1).optional(),
  RATE_LIMIT_ACCOUNT_PREMIUM_PER_HOUR: Joi.number().integer().min(1).optional(),
  RATE_LIMIT_ACCOUNT_PREMIUM_PER_DAY: Joi.number().integer().min(1).optional(),
  ACCOUNT_DAILY_TOKENS_FREE: Joi.number().integer().min(1).default(10_000_000),
  ACCOUNT_DAILY_TOKENS_PREMIUM: Joi.number().integer().min(1).default(500_000_000),
  ACCOUNT_DAILY_COST_FREE: money.default(100),
  ACCOUNT_DAILY_COST_PREMIUM: money.default(5_000),
  MAX_KEYS_PER_ACCOUNT: Joi.number().integer().min(1).default(10),
  SESSION_JWT_SECRET: sessionSecret,
  SESSION_JWKS_URL: Joi.string().uri().optional(),
  SESSION_JWT_ISSUER: sessionClaim("SESSION_JWT_ISSUER"),
  SESSION_JWT_AUDIENCE: sessionClaim("SESSION_JWT_AUDIENCE"),
  SESSION_MAX_AGE_SECONDS: Joi.number().integer().min(60).default(86_400),
  SESSION_SIGN_IN_URL: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .optional(),
  DAILY_LIMIT_PAID_PROMPTS: Joi.number().integer().min(0).default(500),
  DAILY_LIMIT_PAID_AGENTS: Joi.number().integer().min(0).default(500),
  DAILY_LIMIT_FREE_CONTENT: Joi.number().integer().min(0).default(500),
  CONTENT_SCORING_MODEL: Joi.string().default("gpt-4.1-mini"),
  CONTENT_SCORING_TIMEOUT_MS: ms.default(60_000),
  // Unset: every prompt waits for a moderator. Set: a model score at least this high (0–10) approves.
  AUTO_APPROVE_MIN_SCORE: Joi.number().min(0).max(10).empty("").optional(),
  TRUST_MIN_RATER_AGE_HOURS: Joi.number().min(0).default(72),
  TRUST_MIN_DISTINCT_RATERS: Joi.number().integer().min(1).default(3),
  PRICE_SOURCE_URL: Joi.string().uri().default("https://api.coingecko.com/api/v3/simple/price"),
  PRICE_CURRENCY_ID: Joi.string().default("solana"),
  PRICE_FIXED_USD: Joi.number().positive().optional(),
  PRICE_CACHE_MS: ms.default(30_000),
  PRICE_MAX_AGE_MS: ms.default(600_000),
  PRICE_TIMEOUT_MS: ms.default(3_000),
  STORAGE_DIR: Joi.string().default(".data/uploads"),
  STORAGE_PUBLIC_URL: Joi.string().uri().optional(),
  S3_ENDPOINT: Joi.string().uri().optional(),
  S3_BUCKET: optionalString,
  S3_REGION: Joi.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: Joi.string().uri().optional(),
  IMAGE_MAX_BYTES: Joi.number()
    .integer()
    .min(1)
    .default(5 * 1024 * 1024),
  SOLANA_RPC_URL: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .default("http://127.0.0.1:8899"),
  SOLANA_WS_URL: Joi.string()
    .uri({ scheme: ["ws", "wss"] })
    .optional(),
  SOLANA_NETWORK: Joi.string().default("localnet"),
  TOKEN_LAUNCHER: Joi.string().valid("token-2022", "meteora-dbc").default("token-2022"),
  // Base58 public key (32–44 characters of the Bitcoin alphabet); the default is mainnet USDC.
  SOLANA_USDC_MINT: Joi.string()
    .pattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    .default("EPjFWdd5AufqSSqeM2qTVu3mTJp8ixD2Cd4BBcUoTdDp"),
  TOKEN_LAUNCH_MIN_SOL: Joi.number().min(0).default(0.04),
  TOKEN_SUPPLY: Joi.number().integer().min(1).default(1_000_000_000),
  // A Meteora bonding curve accepts base tokens of 6 to 9 decimals only.
  TOKEN_DECIMALS: Joi.number()
    .integer()
    .min(0)
    .max(9)
    .default(6)
    .when("TOKEN_LAUNCHER", { is: "meteora-dbc", then: Joi.number().min(6) }),
  LAUNCH_WAIT_MS: ms.default(120_000),
}).unknown(true);

function buildConfig(env: Record<string, any>) {
  const platformUrl = env.PLATFORM_URL ?? `http://localhost:${env.PLATFORM_PORT}`;
  return {
    env: env.NODE_ENV as "development" | "test" | "production",
    http: {
      host: env.HOST as string,
      port: env.PORT as number,
      platformPort: env.PLATFORM_PORT as number,
      publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`) as string,
      platformUrl: platformUrl as string,
      bodyLimit: env.BODY_LIMIT as string,
      syncWaitMs: env.SYNC_WAIT_MS as number,
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS as number,
    },
    databaseUrl: env.DATABASE_URL as string,
    databasePoolSize: env.DATABASE_POOL_SIZE as number,
    redisUrl: env.REDIS_URL as string,
    /** Seed nodes of a Redis Cluster; when set, every connection is a cluster client and `REDIS_URL` is unused. */
    redisCluster: parseClusterNodes(env.REDIS_CLUSTER_NODES ?? ""),
    queue: {
      prefix: env.QUEUE_PREFIX as string,
      attempts: env.JOB_ATTEMPTS as number,
      keepCompletedSeconds: env.JOB_KEEP_COMPLETED_S as number,
      keepCompletedCount: env.JOB_KEEP_COMPLETED_COUNT as number,
      lockMs: env.WORKER_LOCK_MS as number,
      stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS as number,
      /** How long a stopping worker lets its active jobs run before handing them back to the queue. */
      drainMs: env.WORKER_DRAIN_MS as number,
      concurrency: {
        agent: env.WORKER_CONCURRENCY_AGENT as number,
        swarm: env.WORKER_CONCURRENCY_SWARM as number,
        chain: env.WORKER_CONCURRENCY_CHAIN as number,
      },
    },
    admin: { user: env.ADMIN_USER as string, password: env.ADMIN_PASSWORD as string },
    /** Encrypts secrets stored with runs (MCP tokens, credential-like llm_args); never logged. */
    secretsKey: env.SECRETS_KEY as string,
    logLevel: env.LOG_LEVEL as string,
    llm: {
      defaultModel: env.DEFAULT_MODEL as string,
      defaultWorkerModel: env.DEFAULT_WORKER_MODEL as string,
      timeoutMs: env.LLM_TIMEOUT_MS as number,
      maxRetries: env.LLM_MAX_RETRIES as number,
      retryBaseMs: env.LLM_RETRY_BASE_MS as number,
      retryMaxDelayMs: env.LLM_RETRY_MAX_DELAY_MS as number,
      /** One OpenAI-compatible gateway for every model (LiteLLM, a company proxy, the local simulator). */
      gateway: env.LLM_BASE_URL
        ? { baseUrl: env.LLM_BASE_URL as string, apiKey: (env.LLM_API_KEY || "none") as string }
        : null,
      providers: {
        openai: { apiKey: env.OPENAI_API_KEY || "", baseUrl: env.OPENAI_BASE_URL },
        anthropic: { apiKey: env.ANTHROPIC_API_KEY || "", baseUrl: env.ANTHROPIC_BASE_URL },
        groq: { apiKey: env.GROQ_API_KEY || "", baseUrl: env.GROQ_BASE_URL },
        openrouter: { apiKey: env.OPENROUTER_API_KEY || "", baseUrl: env.OPENROUTER_BASE_URL },
        together: { apiKey: env.TOGETHER_API_KEY || "", baseUrl: env.TOGETHER_BASE_URL },
        deepseek: { apiKey: env.DEEPSEEK_API_KEY || "", baseUrl: env.DEEPSEEK_BASE_URL },
        mistral: { apiKey: env.MISTRAL_API_KEY || "", baseUrl: env.MISTRAL_BASE_URL },
        xai: { apiKey: env.XAI_API_KEY || "", baseUrl: env.XAI_BASE_URL },
        gemini: { apiKey: env.GEMINI_API_KEY || "", baseUrl: env.GEMINI_BASE_URL },
        ollama: { apiKey: "ollama", baseUrl: env.OLLAMA_BASE_URL },
        vllm: { apiKey: "vllm", baseUrl: env.VLLM_BASE_URL },
        lmstudio: { apiKey: "lmstudio", baseUrl: env.LMSTUDIO_BASE_URL },
      } as Record<string, { apiKey: string; baseUrl: string }>,
    },
    runLimits: {
      maxSeconds: env.RUN_MAX_SECONDS as number,
      maxTokens: { free: env.RUN_MAX_TOKENS_FREE as number, premium: env.RUN_MAX_TOKENS_PREMIUM as number } as Record<
        string,
        number
      >,
      maxCost: { free: env.RUN_MAX_COST_FREE as number, premium: env.RUN_MAX_COST_PREMIUM as number } as Record<
        string,
        number
      >,
    },
    /**
     * Client-given URLs the service connects to (MCP servers) reach only public addresses; these
     * hosts and CIDR ranges are allowed anyway. Empty by default, in development too.
     */
    egress: { allow: parseEgressAllow(env.EGRESS_ALLOW as string) },
    maxBatchSize: env.MAX_BATCH_SIZE as number,
    swarmMaxParallel: env.SWARM_MAX_PARALLEL as number,
    /** Requests per key and window, by the key's tier (unknown tiers get `free`). */
    rateLimits: {
      tiers: {
        free: {
          perMinute: env.RATE_LIMIT_FREE_PER_MINUTE as number,
          perHour: env.RATE_LIMIT_FREE_PER_HOUR as number,
          perDay: env.RATE_LIMIT_FREE_PER_DAY as number,
          tokensPerAgent: env.RATE_LIMIT_FREE_TOKENS_PER_AGENT as number,
        },
        premium: {
          perMinute: env.RATE_LIMIT_PREMIUM_PER_MINUTE as number,
          perHour: env.RATE_LIMIT_PREMIUM_PER_HOUR as number,
          perDay: env.RATE_LIMIT_PREMIUM_PER_DAY as number,
          tokensPerAgent: env.RATE_LIMIT_PREMIUM_TOKENS_PER_AGENT as number,
        },
      },
      redisTimeoutMs: env.RATE_LIMIT_REDIS_TIMEOUT_MS as number,
    },
    /**
     * What all keys of one account may do together, by the tier of the key making the request:
     * requests per window (the key limits unless set) and tokens and dollars per UTC day.
     */
    accountLimits: {
      maxKeys: env.MAX_KEYS_PER_ACCOUNT as number,
      tiers: {
        free: {
          perMinute: (env.RATE_LIMIT_ACCOUNT_FREE_PER_MINUTE ?? env.RATE_LIMIT_FREE_PER_MINUTE) as number,
          perHour: (env.RATE_LIMIT_ACCOUNT_FREE_PER_HOUR ?? env.RATE_LIMIT_FREE_PER_HOUR) as number,
          perDay: (env.RATE_LIMIT_ACCOUNT_FREE_PER_DAY ?? env.RATE_LIMIT_FREE_PER_DAY) as number,
          dailyTokens: env.ACCOUNT_DAILY_TOKENS_FREE as number,
          dailyCost: env.ACCOUNT_DAILY_COST_FREE as number,
        },
        premium: {
          perMinute: (env.RATE_LIMIT_ACCOUNT_PREMIUM_PER_MINUTE ?? env.RATE_LIMIT_PREMIUM_PER_MINUTE) as number,
          perHour: (env.RATE_LIMIT_ACCOUNT_PREMIUM_PER_HOUR ?? env.RATE_LIMIT_PREMIUM_PER_HOUR) as number,
          perDay: (env.RATE_LIMIT_ACCOUNT_PREMIUM_PER_DAY ?? env.RATE_LIMIT_PREMIUM_PER_DAY) as number,
          dailyTokens: env.ACCOUNT_DAILY_TOKENS_PREMIUM as number,
          dailyCost: env.ACCOUNT_DAILY_COST_PREMIUM as number,
        },
      },
    },
    platform: {
      session: {
        jwtSecret: (env.SESSION_JWT_SECRET || "") as string,
        jwksUrl: (env.SESSION_JWKS_URL ?? "") as string,
        issuer: (env.SESSION_JWT_ISSUER || "") as string,
        audience: (env.SESSION_JWT_AUDIENCE || "") as string,
        /** The longest a session token may live (`exp - iat`) and the oldest `iat` accepted. */
        maxAgeSeconds: env.SESSION_MAX_AGE_SECONDS as number,
      },
      /** The identity backend's sign-in page, linked from the platform's sign-in page when set. */
      signInUrl: (env.SESSION_SIGN_IN_URL ?? "") as string,
      /** Per user and UTC day; a token launch counts as a paid agent. */
      dailyLimits: {
        paidPrompts: env.DAILY_LIMIT_PAID_PROMPTS as number,
        paidAgents: env.DAILY_LIMIT_PAID_AGENTS as number,
        freeContent: env.DAILY_LIMIT_FREE_CONTENT as number,
      },
      contentScoring: {
        model: env.CONTENT_SCORING_MODEL as string,
        timeoutMs: env.CONTENT_SCORING_TIMEOUT_MS as number,
      },
      /** Review: prompts wait for a moderator unless the operator opts into approval by a high model score. */
      moderation: { autoApproveMinScore: (env.AUTO_APPROVE_MIN_SCORE ?? null) as number | null },
      /** Which ratings make a seller trusted for paid content: by accounts this old when they rated, this many of them. */
      trust: {
        minRaterAgeHours: env.TRUST_MIN_RATER_AGE_HOURS as number,
        minDistinctRaters: env.TRUST_MIN_DISTINCT_RATERS as number,
      },
      imageMaxBytes: env.IMAGE_MAX_BYTES as number,
    },
    /** USD → network currency (SOL) for prompt prices. */
    prices: {
      sourceUrl: env.PRICE_SOURCE_URL as string,
      currencyId: env.PRICE_CURRENCY_ID as string,
      fixedUsd: (env.PRICE_FIXED_USD ?? null) as number | null,
      cacheMs: env.PRICE_CACHE_MS as number,
      maxAgeMs: env.PRICE_MAX_AGE_MS as number,
      timeoutMs: env.PRICE_TIMEOUT_MS as number,
    },
    /** Images: a local directory served by the platform, or an S3-compatible bucket when configured. */
    storage: {
      dir: env.STORAGE_DIR as string,
      publicUrl: (env.STORAGE_PUBLIC_URL ?? `${platformUrl}/uploads`) as string,
      s3:
        env.S3_ENDPOINT && env.S3_BUCKET
          ? {
              endpoint: env.S3_ENDPOINT as string,
              bucket: env.S3_BUCKET as string,
              region: env.S3_REGION as string,
              accessKeyId: (env.S3_ACCESS_KEY_ID || "") as string,
              secretAccessKey: (env.S3_SECRET_ACCESS_KEY || "") as string,
              publicUrl: (env.S3_PUBLIC_URL ?? `${env.S3_ENDPOINT}/${env.S3_BUCKET}`) as string,
            }
          : null,
    },
    solana: {
      rpcUrl: env.SOLANA_RPC_URL as string,
      wsUrl: (env.SOLANA_WS_URL ?? null) as string | null,
      network: env.SOLANA_NETWORK as string,
      launcher: env.TOKEN_LAUNCHER as "token-2022" | "meteora-dbc",
      /** The USDC mint a `quote_mint: "USDC"` bonding curve trades against (differs per cluster). */
      usdcMint: env.SOLANA_USDC_MINT as string,
      minBalanceSol: env.TOKEN_LAUNCH_MIN_SOL as number,
      supply: env.TOKEN_SUPPLY as number,
      decimals: env.TOKEN_DECIMALS as number,
      launchWaitMs: env.LAUNCH_WAIT_MS as number,
    },
    pricing: {
      inputPerMTok: env.PRICE_INPUT_PER_MTOK as number,
      outputPerMTok: env.PRICE_OUTPUT_PER_MTOK as number,
      perAgent: env.PRICE_PER_AGENT as number,
      perImage: env.PRICE_PER_IMAGE as number,
      perMcpCall: env.PRICE_PER_MCP_CALL as number,
      nightDiscount: env.NIGHT_DISCOUNT as number,
      flexDiscount: env.FLEX_TOKEN_DISCOUNT as number,
      nightTimezone: env.NIGHT_TIMEZONE as string,
      nightStartHour: env.NIGHT_START_HOUR as number,
      nightEndHour: env.NIGHT_END_HOUR as number,
    },
  };
}

/** A Redis Cluster's seed nodes, and the credentials and TLS setting they share (taken from the first URL). */
export interface RedisClusterConfig {
  nodes: { host: string; port: number }[];
  username: string;
  password: string;
  tls: boolean;
}

function parseClusterNodes(value: string): RedisClusterConfig | null {
  const urls = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => new URL(part));
  if (urls.length === 0) return null;
  return {
    nodes: urls.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })),
    username: decodeURIComponent(urls[0].username),
    password: decodeURIComponent(urls[0].password),
    tls: urls[0].protocol === "rediss:",
  };
}

export type Config = ReturnType<typeof buildConfig>;

/** Raised when the environment is invalid; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

/** Validates an environment and returns the frozen configuration (tests build their own). */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const { value, error } = envSchema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(error.details.map((d) => d.message));
  return deepFreeze(buildConfig(value));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function readProcessEnv(): Record<string, string | undefined> {
  // `.env` fills in only what the real environment leaves unset.
  const fromFile = dotenv.config({ quiet: true, processEnv: {} }).parsed ?? {};
  return { ...fromFile, ...process.env };
}

/** The process-wide configuration, validated on first import. */
export const config: Config = (() => {
  try {
    return loadConfig(readProcessEnv());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG: a deploy mistake, not a crash worth retrying
    }
    throw err;
  }
})();
