/**
 * Test settings, applied before any test file imports the configuration: a separate database, a
 * separate Redis database and queue prefix, the LLM simulator as the only LLM, the Solana localnet
 * as the only cluster, and short stall detection so crash-recovery tests finish quickly.
 * `APIARY_TEST_SLOT=<n>` (1–9) gives a run its own database, Redis database, queue prefix,
 * simulator port and localnet ports (RPC and websocket), so several runs can share a machine.
 */
import { randomBytes } from "node:crypto";

const slot = Number(process.env.APIARY_TEST_SLOT ?? 0) || 0;
// A Redis server has 16 databases unless configured otherwise: a slot past 9 would select a
// missing one, stay on database 0 and flush other runs' keys there, so it is refused outright.
if (!Number.isInteger(slot) || slot < 0 || slot > 9) {
  throw new Error(`APIARY_TEST_SLOT must be a whole number from 0 to 9, not ${process.env.APIARY_TEST_SLOT}`);
}
const defaults: Record<string, string> = {
  NODE_ENV: "test",
  DATABASE_URL: `postgres://apiary:apiary@127.0.0.1:5432/apiary_test${slot ? `_${slot}` : ""}`,
  REDIS_URL: `redis://127.0.0.1:6379/${slot ? 5 + slot : 1}`,
  QUEUE_PREFIX: `{apiary-test${slot ? `-${slot}` : ""}}`,
  LOG_LEVEL: "silent",
  LLM_BASE_URL: `http://127.0.0.1:${18090 + slot}/v1`,
  LLM_API_KEY: "simulator",
  // The simulator answers: its `sim_*` controls are options `llm_args` may give.
  LLM_SIMULATOR: "true",
  SOLANA_RPC_URL: `http://127.0.0.1:${18899 + slot * 2}`,
  LLM_RETRY_BASE_MS: "20",
  LLM_RETRY_MAX_DELAY_MS: "200",
  WORKER_LOCK_MS: "2000",
  WORKER_STALLED_INTERVAL_MS: "1000",
  SHUTDOWN_TIMEOUT_MS: "5000",
  // Held responses show they are alive often, so every client the tests drive (the openai SDK,
  // swarms-ts, fetch) meets `: ping` comments and `102 Processing` answers on any longer wait.
  HEARTBEAT_MS: "500",
  // Bull Board has no default password: each test process makes its own, and lets the board's
  // actions through (the read-only default is tested with an app of its own).
  ADMIN_PASSWORD: randomBytes(16).toString("hex"),
  BULL_BOARD_WRITES: "true",
  // Session tokens of the identity backend are signed with this in tests (HS256).
  SESSION_JWT_SECRET: "apiary-test-session-secret-of-some-length",
  // Content scoring by the rules alone unless a test asks for the model (the simulator's scores are noise).
  CONTENT_SCORING_MODEL: "none",
  // The MCP test servers listen on 127.0.0.1. Only that address is allowed, so the egress tests can
  // show other loopback spellings (127.0.0.2, localhost, [::1]) refused. The image hosts tests name
  // stand for public ones; no resolver answers for them here, so they are allowed (not resolved).
  EGRESS_ALLOW: "127.0.0.1,example.test,images.example.com",
  // The built-in search tool talks to a local Exa-compatible server (test/helpers/search-server.ts).
  SEARCH_PROVIDER_URL: `http://127.0.0.1:${18190 + slot}`,
  SEARCH_PROVIDER_API_KEY: "operator-search-key-3f9c1e7a",
  // One test process holds web, workers, simulator and mocha (and every test's leftovers): its memory
  // is not a worker's, so the ceiling would hold the harness's workers back for good part-way
  // through a suite. The ceiling itself is tested with an injected reading (memory-ceiling.test.ts).
  WORKER_MAX_RSS_MB: "0",
  // Worker processes the tests start take any free metrics port (they log it), never a fixed one.
  WORKER_METRICS_PORT: "0",
};
for (const [key, value] of Object.entries(defaults)) process.env[key] ??= value;

/** The port of the tests' search provider (`SEARCH_PROVIDER_URL`). */
export const SEARCH_PORT = Number(new URL(process.env.SEARCH_PROVIDER_URL!).port);
export const SIMULATOR_PORT = Number(new URL(process.env.LLM_BASE_URL!).port);
/** The localnet's JSON-RPC port (its websocket is the next one). */
export const LOCALNET_PORT = Number(new URL(process.env.SOLANA_RPC_URL!).port);
