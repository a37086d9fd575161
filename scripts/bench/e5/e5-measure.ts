import type { BenchOptions } from "../bench-options";
import { measureSequential, type SequentialResult } from "../client/closed-loop";
import { pair, type DirectVsService, type PerTarget } from "../client/direct-vs-service";
import { runLoad, type LoadResult } from "../client/load-run";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";

/** Concurrency of the throughput runs. */
export const HIGH_CONCURRENCY = 50;

/** One round: every measurement once for each target. */
export interface AgentRound {
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

/**
 * Measures both targets `opts.rounds` times. Direct and service runs alternate, and the one going
 * first flips each round, so drifting machine noise (thermal, other tenants, Postgres autovacuum)
 * hits both sides alike instead of skewing one.
 */
export async function measureRounds(
  ctx: DirectVsService,
  opts: BenchOptions,
  say: (line: string) => void,
): Promise<AgentRound[]> {
  const rounds: AgentRound[] = [];
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
