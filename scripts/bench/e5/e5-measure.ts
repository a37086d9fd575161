import type { BenchOptions } from "../bench-options";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import type { HttpTarget } from "../client/http-target";
import { runLoad, type LoadResult } from "../client/load-run";
import type { QueueWatcher } from "../probes/queue-watcher";
import { measureSequential, type SequentialResult } from "../client/closed-loop";

/** Concurrency of the throughput runs. */
export const HIGH_CONCURRENCY = 50;
const WARMUP_CONCURRENCY = 10;
// Enough sequential requests to get the client-side code paths compiled before the timed loop.
const WARMUP_SEQUENTIAL_REQUESTS = 200;
const QUEUE_IDLE_TIMEOUT_MS = 60_000;

/** Results per target name ("direct" / "service"). */
export type PerTarget<T> = Record<string, T>;

/** One round: every measurement once for each target. */
export interface E5Round {
  round: number;
  /** Which target went first in each pair this round. */
  order: string[];
  sequential: PerTarget<SequentialResult>;
  c1: PerTarget<LoadResult>;
  c50: PerTarget<LoadResult>;
  /** ms the worker needed after each service load run to finish jobs whose clients were cut off. */
  queueDrainMs: number[];
  /** CPU steal and busy over the whole round (null without /proc/stat). */
  cpu: CpuUsage | null;
  /** The same per measured run, keyed `<kind> <target>` (e.g. `c50 service`), queue drains excluded. */
  cpuByRun: Record<string, CpuUsage | null>;
}

/** Discarded warm-up runs, kept only to report errors there. */
export interface E5Warmup {
  load: PerTarget<LoadResult>;
  sequential: PerTarget<SequentialResult>;
}

/** What the measurement phase needs from the set-up. */
export interface E5Context {
  direct: HttpTarget;
  service: HttpTarget;
  queue: QueueWatcher;
  /** Throws if a child process died; checked after every run so a crash is not misread as a result. */
  assertAlive(): void;
}

function e5Say(line: string): void {
  process.stderr.write(`[e5] ${line}\n`);
}

/**
 * Runs `measure` for each target in `order`, then lets the service's queue drain: autocannon cuts
 * its connections at the deadline, but the worker still finishes the jobs those requests queued,
 * and that work must not land in the next measurement. Each run's CPU steal goes into
 * `cpu.byRun`, so a bad run can be told apart from a bad neighbour.
 */
export async function pair<T>(
  ctx: E5Context,
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
  ctx: E5Context,
  opts: BenchOptions,
  say: (line: string) => void = e5Say,
): Promise<E5Warmup> {
  const warmup: E5Warmup = { load: {}, sequential: {} };
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

/**
 * Measures both targets `opts.rounds` times. Direct and service runs alternate, and the one going
 * first flips each round, so drifting machine noise (thermal, other tenants, Postgres autovacuum)
 * hits both sides alike instead of skewing one.
 */
export async function measureRounds(ctx: E5Context, opts: BenchOptions): Promise<E5Round[]> {
  const say = e5Say;
  const rounds: E5Round[] = [];
  const d = opts.durationS;
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 === 0 ? [ctx.direct, ctx.service] : [ctx.service, ctx.direct];
    const names = order.map((t) => t.name);
    const label = `round ${i + 1}/${opts.rounds}`;
    const drains: number[] = [];
    const cpuByRun: Record<string, CpuUsage | null> = {};
    const endRoundCpu = startCpuWindow();
    say(`${label}: c=1 sequential latency, ${d} s each (${names.join(" then ")})`);
    const sequential = await pair(ctx, order, drains, { kind: "sequential", byRun: cpuByRun }, (t) =>
      measureSequential(t, d),
    );
    say(`${label}: c=1 autocannon, ${d} s each`);
    const c1 = await pair(ctx, order, drains, { kind: "c1", byRun: cpuByRun }, (t) => runLoad(t, 1, d));
    say(`${label}: c=${HIGH_CONCURRENCY} autocannon, ${d} s each`);
    const c50 = await pair(ctx, order, drains, { kind: `c${HIGH_CONCURRENCY}`, byRun: cpuByRun }, (t) =>
      runLoad(t, HIGH_CONCURRENCY, d),
    );
    rounds.push({
      round: i + 1,
      order: names,
      sequential,
      c1,
      c50,
      queueDrainMs: drains,
      cpu: endRoundCpu(),
      cpuByRun,
    });
  }
  return rounds;
}
