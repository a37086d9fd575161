import type { BenchOptions } from "../bench-options";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import type { QueueWatcher } from "../probes/queue-watcher";
import { measureSequential, type SequentialResult } from "./closed-loop";
import type { HttpTarget } from "./http-target";
import { runLoad, type LoadResult } from "./load-run";

const WARMUP_CONCURRENCY = 10;
// Enough sequential requests to get the client-side code paths compiled before the timed loop.
const WARMUP_SEQUENTIAL_REQUESTS = 200;
const QUEUE_IDLE_TIMEOUT_MS = 60_000;

/** Results per target name ("direct" / "service"). */
export type PerTarget<T> = Record<string, T>;

/**
 * One request kind measured two ways: straight to the LLM simulator (what the answer costs without
 * the service) and through the service. The difference is the service's own cost.
 */
export interface DirectVsService {
  direct: HttpTarget;
  service: HttpTarget;
  /** The queue the service's jobs go to, emptied after every service run. */
  queue: QueueWatcher;
  /** Throws if a child process died; checked after every run so a crash is not misread as a result. */
  assertAlive(): void;
}

/** Discarded warm-up runs, kept only to report errors there. */
export interface PairWarmup {
  load: PerTarget<LoadResult>;
  sequential: PerTarget<SequentialResult>;
}

/**
 * Runs `measure` for each target in `order`, then lets the service's queue drain: autocannon cuts
 * its connections at the deadline, but the worker still finishes the jobs those requests queued,
 * and that work must not land in the next measurement. Each run's CPU steal goes into
 * `cpu.byRun`, so a bad run can be told apart from a bad neighbour.
 */
export async function pair<T>(
  ctx: DirectVsService,
  order: HttpTarget[],
  drains: number[],
  cpu: { kind: string; byRun: Record<string, CpuUsage | null> },
  measure: (t: HttpTarget) => Promise<T>,
): Promise<PerTarget<T>> {
  const out: PerTarget<T> = {};
  for (const target of order) {
    const endCpu = startCpuWindow();
    out[target.name] = await measure(target);
    cpu.byRun[`${cpu.kind} ${target.name}`] = endCpu();
    ctx.assertAlive();
    if (target === ctx.service) drains.push(Math.round(await ctx.queue.waitUntilIdle(QUEUE_IDLE_TIMEOUT_MS)));
  }
  return out;
}

/** Warms up both targets: JIT, connection pools and caches in every process get going. */
export async function warmUp(
  ctx: DirectVsService,
  opts: BenchOptions,
  say: (line: string) => void,
): Promise<PairWarmup> {
  const warmup: PairWarmup = { load: {}, sequential: {} };
  for (const target of [ctx.direct, ctx.service]) {
    say(
      `warming up ${target.name} (${opts.warmupS} s at c=${WARMUP_CONCURRENCY}, then ${WARMUP_SEQUENTIAL_REQUESTS} sequential)`,
    );
    warmup.load[target.name] = await runLoad(target, WARMUP_CONCURRENCY, opts.warmupS);
    if (target === ctx.service) await ctx.queue.waitUntilIdle(QUEUE_IDLE_TIMEOUT_MS);
    warmup.sequential[target.name] = await measureSequential(target, opts.warmupS, WARMUP_SEQUENTIAL_REQUESTS);
    ctx.assertAlive();
  }
  return warmup;
}

/** Warnings about the discarded warm-up (errors there usually mean the run below is suspect too). */
export function warmupWarnings(w: PairWarmup): string[] {
  const out: string[] = [];
  for (const [name, r] of Object.entries(w.load)) {
    if (r.errors || r.non2xx)
      out.push(`warm-up ${name}: ${r.errors} errors, ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)})`);
  }
  for (const [name, r] of Object.entries(w.sequential)) {
    if (r.errors || r.non2xx || r.badBodies) out.push(`warm-up ${name} sequential: ${r.problems.join("; ")}`);
  }
  return out;
}
