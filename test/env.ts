/**
 * Test settings, applied before any test file imports the configuration: a separate database, a
 * separate Redis database and queue prefix, the LLM simulator as the only LLM, and short stall
 * detection so crash-recovery tests finish quickly.
 */
const defaults: Record<string, string> = {
  NODE_ENV: "test",
  DATABASE_URL: "postgres://apiary:apiary@127.0.0.1:5432/apiary_test",
  REDIS_URL: "redis://127.0.0.1:6379/1",
  QUEUE_PREFIX: "{apiary-test}",
  LOG_LEVEL: "silent",
  LLM_BASE_URL: "http://127.0.0.1:18090/v1",
  LLM_API_KEY: "simulator",
  LLM_RETRY_BASE_MS: "20",
  LLM_RETRY_MAX_DELAY_MS: "200",
  WORKER_LOCK_MS: "2000",
  WORKER_STALLED_INTERVAL_MS: "1000",
  SHUTDOWN_TIMEOUT_MS: "5000",
};
for (const [key, value] of Object.entries(defaults)) process.env[key] ??= value;

export const SIMULATOR_PORT = Number(new URL(process.env.LLM_BASE_URL!).port);
