import { sendBurst, type BurstResult } from "../client/burst";
import type { HttpTarget } from "../client/http-target";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import { watchProcesses, type ProcessUsage } from "../probes/process-watch";
import type { QueueWatcher } from "../probes/queue-watcher";
import {
  clearSimJournal,
  countSimCalls,
  readSimJournal,
  simArrivals,
  type SimArrivals,
  type SimCalls,
} from "../probes/sim-journal";
import { startTcpCounters, type TcpCounters } from "../probes/tcp-counters";
import type { ManagedProcess } from "../stack/managed-process";
import { CONCURRENT_SWARM } from "../targets/concurrent-swarm-targets";
import { swarmBody } from "../targets/swarm-body";

/** One burst of simultaneous swarm requests and what every process used meanwhile. */
export interface ConcurrencyBurst {
  burst: BurstResult;
  /** Peak RSS (sampled) and CPU per process over the burst, the benchmark client included. */
  processes: ProcessUsage[];
  /** LLM calls the simulator saw during the burst (expected: requests x agents). */
  calls: SimCalls;
  /** When those calls reached the simulator: how many were in flight together. */
  arrivals: SimArrivals;
  /** Connections the kernel dropped meanwhile because a listen backlog was full (null: not Linux). */
  tcp: TcpCounters | null;
  cpu: CpuUsage | null;
}

/** What the burst needs from the set-up. */
export interface ConcurrencyContext {
  target: HttpTarget;
  simulatorUrl: string;
  latencyMs: number;
  queue: QueueWatcher;
  /** The stack's processes, to sample. */
  processes: ManagedProcess[];
  assertAlive(): void;
}

// Far above the ideal time: a request that needs longer than this has failed the requirement anyway.
const REQUEST_TIMEOUT_MS = 300_000;
const RSS_SAMPLE_MS = 100;

/** Each request gets its own task, as separate users' requests would. */
function bodyOf(ctx: ConcurrencyContext, tag: string): (i: number) => string {
  return (i) => JSON.stringify(swarmBody(CONCURRENT_SWARM.type, CONCURRENT_SWARM.shape, `${tag} ${i}`, ctx.latencyMs));
}

/** Sends `requests` swarm requests at once while sampling every process's memory and CPU. */
export async function measureBurst(ctx: ConcurrencyContext, requests: number, tag: string): Promise<ConcurrencyBurst> {
  await clearSimJournal(ctx.simulatorUrl);
  const watch = watchProcesses(
    [...ctx.processes.map((p) => ({ name: p.name, pid: p.pid })), { name: "bench client", pid: process.pid }],
    RSS_SAMPLE_MS,
  );
  const endCpu = startCpuWindow();
  const endTcp = startTcpCounters();
  const burst = await sendBurst(ctx.target, requests, REQUEST_TIMEOUT_MS, bodyOf(ctx, tag));
  const cpu = endCpu();
  const tcp = endTcp();
  const processes = watch.stop();
  ctx.assertAlive();
  await ctx.queue.waitUntilIdle(REQUEST_TIMEOUT_MS);
  const journal = await readSimJournal(ctx.simulatorUrl);
  return { burst, processes, calls: countSimCalls(journal), arrivals: simArrivals(journal, ctx.latencyMs), tcp, cpu };
}
