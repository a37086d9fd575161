/**
 * Test settings, applied before any test file imports the configuration: a separate database, a
 * separate Redis database and queue prefix, the LLM simulator as the only LLM, and short stall
 * detection so crash-recovery tests finish quickly. `APIARY_TEST_SLOT=<n>` (1–9) gives a run its
 * own database, Redis database, queue prefix and simulator port, so several runs can share a
 * machine.
 */
const slot = Number(process.env.APIARY_TEST_SLOT ?? 0) || 0;
const defaults: Record<string, string> = {
  NODE_ENV: "test",
  DATABASE_URL: `postgres://apiary:apiary@127.0.0.1:5432/apiary_test${slot ? `_${slot}` : ""}`,
  REDIS_URL: `redis://127.0.0.1:6379/${slot ? 5 + slot : 1}`,
  QUEUE_PREFIX: `{apiary-test${slot ? `-${slot}` : ""}}`,
  LOG_LEVEL: "silent",
  LLM_BASE_URL: `http://127.0.0.1:${18090 + slot}/v1`,
  LLM_API_KEY: "simulator",
  LLM_RETRY_BASE_MS: "20",
  LLM_RETRY_MAX_DELAY_MS: "200",
  WORKER_LOCK_MS: "2000",
  WORKER_STALLED_INTERVAL_MS: "1000",
  SHUTDOWN_TIMEOUT_MS: "5000",
  // Session tokens of the identity backend are signed with this in tests (HS256).
  SESSION_JWT_SECRET: "apiary-test-session-secret-of-some-length",
  // Content scoring by the rules alone unless a test asks for the model (the simulator's scores are noise).
  CONTENT_SCORING_MODEL: "none",
};
for (const [key, value] of Object.entries(defaults)) process.env[key] ??= value;

export const SIMULATOR_PORT = Number(new URL(process.env.LLM_BASE_URL!).port);
