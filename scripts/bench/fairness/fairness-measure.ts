import { jsonRequest, type TimedAnswer } from "../client/json-request";
import type { QueueWatcher } from "../probes/queue-watcher";

/** What one repetition needs from the set-up. */
export interface FairnessContext {
  apiUrl: string;
  /** The account that queues the backlog. */
  bigKey: string;
  /** The account that sends one run while the backlog drains. */
  smallKey: string;
  queue: QueueWatcher;
  backlog: number;
  latencyMs: number;
  say(line: string): void;
}

/** One probe run: how long its request took and how long it waited in the queue (the service's clock). */
export interface ProbeRun {
  status: number;
  wallMs: number;
  /** `started_at − queued_at` of its job read; null when the run did not start. */
  queuedMs: number | null;
}

/** One repetition: both probes behind the backlog, and the small account's run on an idle stack. */
export interface FairnessRep {
  rep: number;
  /** How long queuing the backlog took (every run answered 202). */
  submitMs: number;
  backlogRefused: number;
  small: ProbeRun;
  /** The big account's own next run, queued at the same moment: what first in, first out gives everyone. */
  bigNext: ProbeRun;
  idle: ProbeRun;
}

// Enough parallel senders to queue faster than the workers drain, not so many the web process only queues.
const SENDERS = 32;
const RUN_TIMEOUT_MS = 600_000;

function agentRun(name: string, latencyMs: number) {
  return {
    agent_config: { agent_name: name, max_loops: 1, llm_args: { sim_latency_ms: latencyMs } },
    task: `Name one use of honey (${name}).`,
  };
}

/** Queues `count` runs of `key` in async mode; resolves with how many were not accepted (202). */
async function queueBacklog(ctx: FairnessContext, count: number): Promise<number> {
  let next = 0;
  let refused = 0;
  const sender = async () => {
    while (next < count) {
      const i = next++;
      const res = await jsonRequest("POST", `${ctx.apiUrl}/v1/agent/completions`, {
        apiKey: ctx.bigKey,
        body: agentRun(`Backlog ${i}`, ctx.latencyMs),
        headers: { prefer: "respond-async" },
      });
      if (res.status !== 202) refused++;
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return refused;
}

/** Runs one agent completion synchronously and reads how long its job waited to start. */
async function probe(ctx: FairnessContext, key: string, name: string): Promise<ProbeRun> {
  const res: TimedAnswer = await jsonRequest("POST", `${ctx.apiUrl}/v1/agent/completions`, {
    apiKey: key,
    body: agentRun(name, ctx.latencyMs),
    timeoutMs: RUN_TIMEOUT_MS,
  });
  const jobId = (res.json as { job_id?: string } | undefined)?.job_id;
  let queuedMs: number | null = null;
  if (jobId) {
    // The list gives every run's times (a finished run's own read is its stored answer); the probe
    // is its account's newest run, its own backlog having been queued before it.
    const read = await jsonRequest("GET", `${ctx.apiUrl}/v1/jobs?limit=5`, { apiKey: key });
    type Listed = { job_id: string; created_at: string; started_at: string | null };
    const job = (read.json as { jobs?: Listed[] } | undefined)?.jobs?.find((j) => j.job_id === jobId);
    if (job?.started_at) queuedMs = Date.parse(job.started_at) - Date.parse(job.created_at);
  }
  return { status: res.status, wallMs: res.ms, queuedMs };
}

/**
 * One repetition: the big account queues its backlog; the moment the last run is accepted, the
 * small account's run and the big account's next run are sent together; once the queue has
 * drained, the small account's run again on the idle stack (the baseline of what a run takes).
 */
export async function measureRep(ctx: FairnessContext, rep: number): Promise<FairnessRep> {
  ctx.say(`rep ${rep}: queuing ${ctx.backlog} runs of the big account`);
  const started = performance.now();
  const backlogRefused = await queueBacklog(ctx, ctx.backlog);
  const submitMs = performance.now() - started;
  const [small, bigNext] = await Promise.all([
    probe(ctx, ctx.smallKey, `Small ${rep}`),
    probe(ctx, ctx.bigKey, `Big next ${rep}`),
  ]);
  await ctx.queue.waitUntilIdle(RUN_TIMEOUT_MS);
  const idle = await probe(ctx, ctx.smallKey, `Idle ${rep}`);
  return { rep, submitMs, backlogRefused, small, bigNext, idle };
}
