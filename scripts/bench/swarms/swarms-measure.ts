import { jsonRequest } from "../client/json-request";
import { startCpuWindow, withCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import type { QueueWatcher } from "../probes/queue-watcher";
import { clearSimJournal, readSimCalls, type SimCalls } from "../probes/sim-journal";
import { swarmBody } from "../targets/swarm-body";
import type { SwarmShape } from "../targets/swarm-body";
import { SWARM_CASES, SWARM_SIM_LATENCY_MS, type ResponseDepth } from "./swarm-cases";

/** One swarm completion request of one swarm type. */
export interface SwarmRunResult {
  type: string;
  /** 0 for the discarded warm-up pass. */
  rep: number;
  status: number;
  /** The response's `execution_time` (seconds, the service's clock), null when absent. */
  executionS: number | null;
  /** Client-side wall time of the request, ms (includes queueing and the HTTP round trip). */
  wallMs: number;
  /** LLM calls the simulator saw during the run. */
  calls: SimCalls;
  /** Why the run does not count (non-200, no `execution_time`), else null. */
  error: string | null;
  cpu: CpuUsage | null;
  /** For types with `depthFromResponse`: this run's depth read from its response; else null. */
  responseDepth: ResponseDepth | null;
}

/** What the measurement needs from the set-up. */
export interface SwarmsContext {
  apiUrl: string;
  apiKey: string;
  simulatorUrl: string;
  /** The `swarm` queue: emptied between runs, so a run cut off by a timeout cannot overlap the next. */
  queue: QueueWatcher;
  assertAlive(): void;
}

const QUEUE_IDLE_TIMEOUT_MS = 120_000;

function errorOf(status: number, json: unknown, text: string): string | null {
  if (status !== 200) {
    const detail = (json as { detail?: unknown })?.detail;
    return `HTTP ${status}: ${typeof detail === "string" ? detail : text}`.slice(0, 300);
  }
  return typeof (json as { execution_time?: unknown })?.execution_time === "number"
    ? null
    : "200 without a numeric execution_time";
}

/** Sends one swarm completion request of `type` and reads back its `execution_time` and the LLM calls it made. */
async function runSwarm(ctx: SwarmsContext, type: string, shape: SwarmShape, rep: number): Promise<SwarmRunResult> {
  await clearSimJournal(ctx.simulatorUrl);
  const body = swarmBody(type, shape, `${type} rep ${rep}`, SWARM_SIM_LATENCY_MS);
  const { value: answer, cpu } = await withCpuWindow(() =>
    jsonRequest("POST", `${ctx.apiUrl}/v1/swarm/completions`, { apiKey: ctx.apiKey, body }),
  );
  ctx.assertAlive();
  await ctx.queue.waitUntilIdle(QUEUE_IDLE_TIMEOUT_MS);
  const execution = (answer.json as { execution_time?: unknown })?.execution_time;
  return {
    type,
    rep,
    status: answer.status,
    executionS: typeof execution === "number" ? execution : null,
    wallMs: answer.ms,
    calls: await readSimCalls(ctx.simulatorUrl),
    error: errorOf(answer.status, answer.json, answer.text),
    cpu,
    responseDepth: answer.status === 200 ? (SWARM_CASES[type]?.depthFromResponse?.(answer.json, shape) ?? null) : null,
  };
}

/**
 * Runs every type once per repetition, types interleaved (rep 1 of all, then rep 2 of all…), so a
 * burst of CPU steal spreads over types instead of spoiling all runs of one. Rep 0 is a discarded
 * warm-up pass: each type's code is compiled on its first run. `cpu` covers the measured passes.
 */
export async function measureSwarms(
  ctx: SwarmsContext,
  cases: [string, SwarmShape][],
  reps: number,
  say: (line: string) => void,
): Promise<{ warmup: SwarmRunResult[]; runs: SwarmRunResult[]; cpu: CpuUsage | null }> {
  const warmup: SwarmRunResult[] = [];
  const runs: SwarmRunResult[] = [];
  let endCpu = () => null as CpuUsage | null;
  for (let rep = 0; rep <= reps; rep++) {
    // The CPU window covers the measured passes only, like the table's figures.
    if (rep === 1) endCpu = startCpuWindow();
    say(rep === 0 ? `warm-up pass over ${cases.length} type(s)` : `rep ${rep}/${reps}`);
    for (const [type, shape] of cases) {
      const r = await runSwarm(ctx, type, shape, rep);
      if (r.error) say(`  ${type}: ${r.error}`);
      (rep === 0 ? warmup : runs).push(r);
    }
  }
  return { warmup, runs, cpu: endCpu() };
}
