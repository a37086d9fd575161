import type { BenchOptions } from "../bench-options";
import { measureClosedLoop, type SequentialResult } from "../client/closed-loop";
import type { HttpTarget } from "../client/http-target";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import { watchProcesses, type ProcessUsage } from "../probes/process-watch";
import type { QueueWatcher } from "../probes/queue-watcher";
import type { ManagedProcess } from "../stack/managed-process";

/**
 * Requests kept in flight: enough to keep every worker's CPU busy at zero simulated latency, so the
 * workers, not the client, set the pace.
 */
export const THROUGHPUT_CONCURRENCY = 100;
const QUEUE_IDLE_TIMEOUT_MS = 60_000;

/** All runs with one set of running processes. */
export interface ThroughputPhase {
  webs: number;
  workers: number;
  runs: SequentialResult[];
  /** Over the phase's runs. */
  cpu: CpuUsage | null;
  /** CPU and memory per process over the phase's runs (the benchmark client included): where the time goes. */
  processes: ProcessUsage[];
}

/** What a phase measures against. */
export interface ThroughputContext {
  queue: QueueWatcher;
  /** The processes running now (the stack's list, which shrinks as processes are stopped). */
  processes: ManagedProcess[];
  assertAlive(): void;
}

/**
 * `opts.rounds` closed-loop runs of `opts.durationS` at `THROUGHPUT_CONCURRENCY`, spread over
 * `targets` (one per web process, loops alternating), with the queue emptied between runs.
 */
export async function measureThroughputPhase(
  ctx: ThroughputContext,
  targets: HttpTarget[],
  shape: { webs: number; workers: number },
  opts: BenchOptions,
  say: (line: string) => void,
): Promise<ThroughputPhase> {
  const endCpu = startCpuWindow();
  const watch = watchProcesses(
    [...ctx.processes.map((p) => ({ name: p.name, pid: p.pid })), { name: "bench client", pid: process.pid }],
    500,
  );
  const runs: SequentialResult[] = [];
  for (let i = 1; i <= opts.rounds; i++) {
    const r = await measureClosedLoop(targets, THROUGHPUT_CONCURRENCY, opts.durationS);
    ctx.assertAlive();
    await ctx.queue.waitUntilIdle(QUEUE_IDLE_TIMEOUT_MS);
    say(
      `${shape.webs} web, ${shape.workers} worker(s), run ${i}/${opts.rounds}: ${(r.latencyMs.count / r.durationS).toFixed(0)} completions/s`,
    );
    runs.push(r);
  }
  return { ...shape, runs, cpu: endCpu(), processes: watch.stop() };
}
