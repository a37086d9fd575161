import { jsonRequest } from "./json-request";

/** The LLM calls the simulator saw since its journal was last cleared. */
export interface SimCalls {
  calls: number;
  /** Calls that did not ask for a simulated latency (so they returned at once). */
  withoutLatency: number;
  /** Calls the simulator answered with an error status. */
  failed: number;
}

/**
 * Empties the simulator's request journal (`DELETE /_journal`). Call before a run that is measured
 * alone: the journal then holds exactly that run's LLM calls.
 */
export async function clearSimJournal(simulatorUrl: string): Promise<void> {
  const answer = await jsonRequest("DELETE", `${simulatorUrl}/_journal`);
  if (answer.status !== 204) throw new Error(`clearing the simulator journal: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
}

/**
 * Counts the journal's calls. A run faster than its depth × latency usually has calls without
 * `sim_latency_ms` (an internal agent that did not get the request agents' `llm_args`); a slower
 * one, extra calls (a repair attempt): both show here.
 */
export async function readSimCalls(simulatorUrl: string): Promise<SimCalls> {
  const answer = await jsonRequest("GET", `${simulatorUrl}/_journal`);
  if (!Array.isArray(answer.json)) throw new Error(`reading the simulator journal: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  const entries = answer.json as { body?: { sim_latency_ms?: unknown } | null; status?: number }[];
  return {
    calls: entries.length,
    withoutLatency: entries.filter((e) => typeof e.body?.sim_latency_ms !== "number" || e.body.sim_latency_ms <= 0).length,
    failed: entries.filter((e) => (e.status ?? 200) >= 400).length,
  };
}
