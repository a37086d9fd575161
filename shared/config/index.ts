import Joi from "joi";
import dotenv from "dotenv";
import { accounts } from "./accounts";
import { database } from "./database";
import { egress } from "./egress";
import { exchangeRate } from "./exchange-rate";
import { http } from "./http";
import { llm } from "./llm";
import { marketplace } from "./marketplace";
import { metrics } from "./metrics";
import { pricing } from "./pricing";
import { providerLimits } from "./provider-limits";
import { queues } from "./queues";
import { rateLimits } from "./rate-limits";
import { redis } from "./redis";
import { runs } from "./runs";
import { runtime } from "./runtime";
import { secrets } from "./secrets";
import { sessions } from "./sessions";
import type { ValidatedEnv } from "./setting";
import { solana } from "./solana";
import { storage } from "./storage";
import { tools } from "./tools";
import { tracing } from "./tracing";

export type { RedisClusterConfig } from "./redis";

/**
 * Every setting of the service, read from the environment (plus an optional `.env`) and validated
 * once. Nothing else in the code base reads `process.env`: it imports `config` from here. Each
 * domain file declares its variables (rule, default, description) beside the part of `config`
 * they make; docs/configuration.md lists them in this order.
 */
export const domains = {
  runtime,
  http,
  database,
  redis,
  queues,
  secrets,
  llm,
  providerLimits,
  runs,
  pricing,
  rateLimits,
  egress,
  tracing,
  tools,
  sessions,
  accounts,
  marketplace,
  exchangeRate,
  storage,
  solana,
  metrics,
};

/** Environment variable → rule, of every domain; validated together so rules may refer to each other. */
const envSchema = Joi.object(
  Object.fromEntries(
    Object.values(domains).flatMap((domain) =>
      Object.entries(domain.settings).map(([name, setting]) => [name, setting.schema]),
    ),
  ),
).unknown(true);

function buildConfig(env: ValidatedEnv) {
  const { http: httpConfig } = http.load(env);
  return {
    ...runtime.load(env),
    http: httpConfig,
    ...database.load(env),
    ...redis.load(env),
    ...queues.load(env),
    ...secrets.load(env),
    ...llm.load(env),
    ...providerLimits.load(env),
    ...runs.load(env),
    ...egress.load(env),
    ...tracing.load(env),
    ...tools.load(env),
    ...rateLimits.load(env),
    platform: { ...sessions.load(env), ...accounts.load(env), ...marketplace.load(env) },
    ...exchangeRate.load(env),
    ...storage.load(env, { platformUrl: httpConfig.platformUrl }),
    ...solana.load(env),
    ...pricing.load(env),
    ...metrics.load(env),
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
