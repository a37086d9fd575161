import { Counter, Gauge, Histogram } from "prom-client";
import type { FailureCause } from "../failure-cause";
import { EMBEDDING_MODEL_IDS } from "../llm/embedding-models";
import { MODEL_CATALOG } from "../llm/model-catalog";
import { PREFIX, workerRegistry } from "./registry";

const registers = [workerRegistry];
const labelNames = ["provider", "model"] as const;

const calls = new Counter({
  name: `${PREFIX}llm_calls_total`,
  help: "LLM calls made (replayed steps not counted), by provider, model, outcome (ok, error, aborted) and, for an error, cause (caller: the provider refused the request as the caller made it; service: ours or the provider's)",
  labelNames: [...labelNames, "outcome", "cause"] as const,
  registers,
});

const duration = new Histogram({
  name: `${PREFIX}llm_call_duration_seconds`,
  help: "Time of one LLM call, its retries included, by provider and model",
  labelNames,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160],
  registers,
});

const tokens = new Counter({
  name: `${PREFIX}llm_tokens_total`,
  help: "Tokens of LLM calls (finished, or cut off part-way: what they consumed), by provider, model and direction (input, output)",
  labelNames: [...labelNames, "direction"] as const,
  registers,
});

const cost = new Counter({
  name: `${PREFIX}llm_cost_usd_total`,
  help: "The list price of the tokens of LLM calls (finished, or cut off part-way), in US dollars, by provider and model",
  labelNames,
  registers,
});

const retries = new Counter({
  name: `${PREFIX}llm_retries_total`,
  help: "LLM call attempts retried after a 429, 5xx, timeout or lost connection, by provider",
  labelNames: ["provider"] as const,
  registers,
});

/**
 * Model ids as providers receive them (a routing prefix such as `groq/` removed) for every model
 * of the catalogue and every embedding model: the only model names a label carries. Requests may name any model, so any
 * other name is counted as `other` — a label per free-text name would grow without bound.
 */
const KNOWN_MODELS = new Set([
  ...MODEL_CATALOG.flatMap(({ id, provider }) => [
    id,
    id.startsWith(`${provider}/`) ? id.slice(provider.length + 1) : id,
  ]),
  ...EMBEDDING_MODEL_IDS,
]);

/** The label a model name is counted under: its catalogue name, or `other`. */
export function modelLabel(model: string): string {
  return KNOWN_MODELS.has(model) ? model : "other";
}

/** One LLM call as it ended. `provider` is one of the service's provider names (or `gateway`). */
export interface LlmCallRecord {
  provider: string;
  model: string;
  seconds: number;
  outcome: "ok" | "error" | "aborted";
  /** Whose fault a failed call is (`failureCauseOf`); counted only for errors. */
  cause?: FailureCause;
  inputTokens?: number;
  outputTokens?: number;
  cost?: number;
}

/** Counts one LLM call (made, not replayed): its outcome, time, and for a finished call its tokens and cost. */
export function countLlmCall(call: LlmCallRecord): void {
  const labels = { provider: call.provider, model: modelLabel(call.model) };
  calls.inc({
    ...labels,
    outcome: call.outcome,
    ...(call.outcome === "error" && call.cause ? { cause: call.cause } : {}),
  });
  duration.observe(labels, call.seconds);
  if (call.inputTokens) tokens.inc({ ...labels, direction: "input" }, call.inputTokens);
  if (call.outputTokens) tokens.inc({ ...labels, direction: "output" }, call.outputTokens);
  if (call.cost) cost.inc(labels, call.cost);
}

/** Counts one retried attempt of an LLM call. */
export function countLlmRetry(provider: string): void {
  retries.inc({ provider });
}

/** What the per-process cap on LLM calls reports: calls holding a slot and calls waiting for one. */
export interface LlmSlotsState {
  inFlight: number;
  waiting: number;
}

let readSlots: () => LlmSlotsState = () => ({ inFlight: 0, waiting: 0 });

/** Has every scrape read the cap's state from `read` (the worker's one `FairSemaphore`). */
export function watchLlmSlots(read: () => LlmSlotsState): void {
  readSlots = read;
}

new Gauge({
  name: `${PREFIX}llm_calls_in_flight`,
  help: "LLM calls this process has in flight now (at most LLM_MAX_IN_FLIGHT)",
  registers,
  collect() {
    this.set(readSlots().inFlight);
  },
});

new Gauge({
  name: `${PREFIX}llm_calls_waiting`,
  help: "LLM calls waiting for one of this process's LLM_MAX_IN_FLIGHT slots now",
  registers,
  collect() {
    this.set(readSlots().waiting);
  },
});

const slotWait = new Histogram({
  name: `${PREFIX}llm_slot_wait_seconds`,
  help: "How long an LLM call waited for a slot under LLM_MAX_IN_FLIGHT before it was sent (0 when one was free)",
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers,
});

/** Records how long one LLM call waited for its slot (also for a call whose run gave up waiting). */
export function observeLlmSlotWait(seconds: number): void {
  slotWait.observe(seconds);
}
