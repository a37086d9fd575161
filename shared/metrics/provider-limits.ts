import { Counter, Gauge, Histogram } from "prom-client";
import { PREFIX, workerRegistry } from "./registry";

/*
 * What the shared provider limits (shared/llm/provider-limits/) show: labelled by provider name
 * only, never by key (a key's name is a keyed hash, and even that stays out of labels).
 */

const registers = [workerRegistry];

const wait = new Histogram({
  name: `${PREFIX}llm_provider_wait_seconds`,
  help: "How long an LLM call waited for its turn under its provider key's requests and tokens per minute (only calls to a key with a limit configured or learned), by provider",
  labelNames: ["provider"] as const,
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers,
});

const windowUse = new Gauge({
  name: `${PREFIX}llm_provider_window_use_ratio`,
  help: "Share of a provider key's window in use as this process last took a turn (1: the window is full), by provider and limit (requests, tokens)",
  labelNames: ["provider", "limit"] as const,
  registers,
});

const refusals = new Counter({
  name: `${PREFIX}llm_provider_rate_limited_total`,
  help: "429 answers (rate limited) received from providers, by provider",
  labelNames: ["provider"] as const,
  registers,
});

/** Records how long one call waited for its provider key's turn (also one whose run gave up waiting). */
export function observeProviderWait(provider: string, seconds: number): void {
  wait.observe({ provider }, seconds);
}

/** Notes the share of a key's request or token window in use (from ‰ as the bucket reports it; below 0: no such limit). */
export function noteProviderWindowUse(provider: string, limit: "requests" | "tokens", permille: number): void {
  if (permille >= 0) windowUse.set({ provider, limit }, Math.min(permille, 1000) / 1000);
}

/** Counts one 429 from a provider. */
export function countProviderRateLimited(provider: string): void {
  refusals.inc({ provider });
}
