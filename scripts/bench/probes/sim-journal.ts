import { jsonRequest } from "../client/json-request";

/** The LLM calls the simulator saw since its journal was last cleared. */
export interface SimCalls {
  calls: number;
  /** Calls that did not ask for a simulated latency (so they returned at once). */
  withoutLatency: number;
  /** Calls the simulator answered with an error status. */
  failed: number;
}

/** One journal entry, as far as the benchmarks read it. */
export interface SimJournalEntry {
  /** Arrival time, ISO 8601. */
  at?: string;
  body?: { sim_latency_ms?: unknown } | null;
  status?: number;
}

/**
 * Empties the simulator's request journal (`DELETE /_journal`). Call before a run that is measured
 * alone: the journal then holds exactly that run's LLM calls.
 */
export async function clearSimJournal(simulatorUrl: string): Promise<void> {
  const answer = await jsonRequest("DELETE", `${simulatorUrl}/_journal`);
  if (answer.status !== 204)
    throw new Error(`clearing the simulator journal: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
}

/** The journal's entries, oldest first. */
export async function readSimJournal(simulatorUrl: string): Promise<SimJournalEntry[]> {
  const answer = await jsonRequest("GET", `${simulatorUrl}/_journal`);
  if (!Array.isArray(answer.json))
    throw new Error(`reading the simulator journal: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  return answer.json as SimJournalEntry[];
}

/**
 * Counts the journal's calls. A run faster than its depth × latency usually has calls without
 * `sim_latency_ms` (an internal agent that did not get the request agents' `llm_args`); a slower
 * one, extra calls (a repair attempt): both show here.
 */
export function countSimCalls(entries: SimJournalEntry[]): SimCalls {
  return {
    calls: entries.length,
    withoutLatency: entries.filter((e) => typeof e.body?.sim_latency_ms !== "number" || e.body.sim_latency_ms <= 0)
      .length,
    failed: entries.filter((e) => (e.status ?? 200) >= 400).length,
  };
}

/** `countSimCalls` of the live journal. */
export async function readSimCalls(simulatorUrl: string): Promise<SimCalls> {
  return countSimCalls(await readSimJournal(simulatorUrl));
}

/** When the LLM calls arrived, for calls that all wait the same `latencyMs`. */
export interface SimArrivals {
  /** First to last arrival, ms. */
  spanMs: number;
  /**
   * Most calls in flight at once: arrivals within one `latencyMs` window. A cap well below the
   * number of calls sent at once means something between the service and the LLM queues them.
   */
  peakInFlight: number;
}

/** Reads the calls' arrival times from the journal: how long they spread and how many overlapped. */
export function simArrivals(entries: SimJournalEntry[], latencyMs: number): SimArrivals {
  const times = entries
    .map((e) => Date.parse(e.at ?? ""))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  let peak = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while (times[to] - times[from] >= latencyMs) from++;
    peak = Math.max(peak, to - from + 1);
  }
  return { spanMs: times.length ? times[times.length - 1] - times[0] : 0, peakInFlight: peak };
}
