import { jsonRequest } from "../client/json-request";
import { startCpuWindow, withCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import type { QueueWatcher } from "../probes/queue-watcher";

/** The batch target: 100 items, 500 ms simulated LLM latency each, done in under 3 s. */
export const BATCH_ITEMS = 100;
export const SIM_LATENCY_MS = 500;
export const LIMIT_MS = 3_000;

const QUEUE_IDLE_TIMEOUT_MS = 60_000;
const MAX_PROBLEMS = 5;

/** One timed batch request. */
export interface BatchRep {
  rep: number;
  status: number;
  /** Client-side wall time of the whole request, ms. */
  wallMs: number;
  /** The response's `execution_time` (seconds, the service's own clock), null if absent. */
  serverExecutionS: number | null;
  /** Items that did not come back `success: true` (all of them when the request itself failed). */
  failedItems: number;
  /** Items answered in a slot other than their own (the agent batch answers in request order). */
  misplacedItems: number;
  problems: string[];
  cpu: CpuUsage | null;
}

/** All repetitions with a given number of agent worker processes. */
export interface BatchPhase {
  workers: number;
  reps: BatchRep[];
  /** Over all repetitions of the phase, queue drains between them included. */
  cpu: CpuUsage | null;
}

/** What the measurement needs from the set-up. */
export interface BatchContext {
  apiUrl: string;
  apiKey: string;
  queue: QueueWatcher;
  assertAlive(): void;
}

/** The agent batch body: `BATCH_ITEMS` agents named `Item <i>`, each asking the simulator to wait `SIM_LATENCY_MS`. */
function batchBody(tag: string): unknown[] {
  return Array.from({ length: BATCH_ITEMS }, (_, i) => ({
    agent_config: { agent_name: `Item ${i}`, llm_args: { sim_latency_ms: SIM_LATENCY_MS } },
    task: `Give one sentence about honey, item ${i} (${tag}).`,
  }));
}

function checkResults(
  json: unknown,
  status: number,
  text: string,
): Pick<BatchRep, "failedItems" | "misplacedItems" | "problems"> {
  const problems: string[] = [];
  const results = (json as { results?: unknown })?.results;
  if (status !== 200 || !Array.isArray(results)) {
    return { failedItems: BATCH_ITEMS, misplacedItems: 0, problems: [`HTTP ${status}: ${text.slice(0, 300)}`] };
  }
  if (results.length !== BATCH_ITEMS) problems.push(`${results.length} results for ${BATCH_ITEMS} items`);
  let failedItems = Math.max(0, BATCH_ITEMS - results.length);
  let misplacedItems = 0;
  results.forEach((r: { success?: unknown; name?: unknown; error?: unknown }, i) => {
    if (r?.success !== true) {
      failedItems++;
      if (problems.length < MAX_PROBLEMS) problems.push(`item ${i}: ${JSON.stringify(r?.error ?? r).slice(0, 200)}`);
    } else if (r.name !== `Item ${i}`) {
      misplacedItems++;
      if (problems.length < MAX_PROBLEMS) problems.push(`slot ${i} holds ${JSON.stringify(r.name)}`);
    }
  });
  return { failedItems, misplacedItems, problems };
}

/** Sends one batch and checks every item; `tag` keeps the tasks of different requests distinct. */
export async function sendBatch(ctx: BatchContext, rep: number, tag: string): Promise<BatchRep> {
  const { value: answer, cpu } = await withCpuWindow(() =>
    jsonRequest("POST", `${ctx.apiUrl}/v1/agent/batch/completions`, { apiKey: ctx.apiKey, body: batchBody(tag) }),
  );
  const execution = (answer.json as { execution_time?: unknown })?.execution_time;
  return {
    rep,
    status: answer.status,
    wallMs: answer.ms,
    serverExecutionS: typeof execution === "number" ? execution : null,
    ...checkResults(answer.json, answer.status, answer.text),
    cpu,
  };
}

/**
 * Sends `reps` batches one after another. Between them the queue must be empty: the answer comes
 * when every item has ended, but a retried or late job would otherwise land in the next timing.
 */
export async function measurePhase(
  ctx: BatchContext,
  workers: number,
  reps: number,
  say: (line: string) => void,
): Promise<BatchPhase> {
  const endCpu = startCpuWindow();
  const out: BatchRep[] = [];
  for (let rep = 1; rep <= reps; rep++) {
    const r = await sendBatch(ctx, rep, `${workers}w-${rep}`);
    ctx.assertAlive();
    await ctx.queue.waitUntilIdle(QUEUE_IDLE_TIMEOUT_MS);
    say(`${workers} worker(s), rep ${rep}/${reps}: ${Math.round(r.wallMs)} ms, ${r.failedItems} failed`);
    out.push(r);
  }
  return { workers, reps: out, cpu: endCpu() };
}
