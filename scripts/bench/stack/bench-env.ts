// `APIARY_TEST_SLOT=<n>` gives a benchmark its own database, Redis database and queue prefix, as it does the tests,
// so benchmarks run from several checkouts on one machine never empty each other's stores.
const SLOT = Number(process.env.APIARY_TEST_SLOT ?? 0) || 0;

/** The dedicated Postgres database every benchmark uses, so runs never touch development data. */
export const BENCH_DATABASE = SLOT ? `apiary_bench_${SLOT}` : "apiary_bench";

const OUT_OF_REACH = String(1_000_000_000);

/** Every per-key rate limit, open-request cap and account daily ceiling, raised out of reach (the limiter still counts). */
export function unreachableRateLimits(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const tier of ["FREE", "PREMIUM"]) {
    for (const window of ["MINUTE", "HOUR", "DAY"]) env[`RATE_LIMIT_${tier}_PER_${window}`] = OUT_OF_REACH;
    for (const measure of ["TOKENS", "COST"]) env[`ACCOUNT_DAILY_${measure}_${tier}`] = OUT_OF_REACH;
    // The concurrency scenario holds thousands of synchronous waits of one key at once.
    for (const scope of ["KEY", "ACCOUNT"]) env[`OPEN_REQUESTS_${tier}_PER_${scope}`] = OUT_OF_REACH;
  }
  return env;
}

/** Ports the benchmark's child processes listen on. */
export interface BenchPorts {
  api: number;
  platform: number;
  simulator: number;
}

/**
 * Environment for the benchmark's child processes: its own database, Redis database and queue
 * prefix (so a developer's running stack, or the tests, never pick up benchmark jobs), the LLM
 * simulator as the only provider, and `warn` logging because request logs at info level would
 * cost the service measurable time per request.
 *
 * The per-key rate limits (and with them the account's, which follow them) and the account's
 * daily spend ceilings are raised out of reach: a benchmark sends far more than a free (or
 * premium) key's allowance per minute, and 429s would measure the limiter's refusal path instead
 * of the service. The limiter still counts every request, so its Redis round trip stays in the
 * measured path, as in production.
 */
export function benchEnv(ports: BenchPorts): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: `postgres://apiary:apiary@127.0.0.1:5432/${BENCH_DATABASE}`,
    REDIS_URL: `redis://127.0.0.1:6379/${SLOT ? 5 + SLOT : 2}`,
    QUEUE_PREFIX: SLOT ? `{apiary-bench-${SLOT}}` : "{apiary-bench}",
    LOG_LEVEL: "warn",
    PORT: String(ports.api),
    PLATFORM_PORT: String(ports.platform),
    LLM_BASE_URL: `http://127.0.0.1:${ports.simulator}/v1`,
    LLM_API_KEY: "sim",
    LLM_SIMULATOR: "true",
    ...unreachableRateLimits(),
  };
}
