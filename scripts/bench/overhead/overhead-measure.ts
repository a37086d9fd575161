import type { BenchOptions } from "../bench-options";
import { measureClosedLoop, type SequentialResult } from "../client/closed-loop";
import { pair, type DirectVsService, type PerTarget } from "../client/direct-vs-service";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";

/** The concurrencies the requirement names. */
export const OVERHEAD_CONCURRENCIES = [1, 50, 200];

/** One request kind measured directly and through the service. */
export interface Workload {
  /** Row label, e.g. `agent completion`. */
  name: string;
  /** Its direct and service targets, its queue and the liveness check. */
  ctx: DirectVsService;
}

/** One round: every workload at every concurrency, direct and through the service. */
export interface OverheadRound {
  round: number;
  /** Which target went first in each pair this round. */
  order: string[];
  /** workload name → `c<n>` → target name → result. */
  results: Record<string, Record<string, PerTarget<SequentialResult>>>;
  /** ms the queue needed to empty after each service run (a run ends with no request in flight, so ~0). */
  queueDrainMs: number[];
  cpu: CpuUsage | null;
  /** Per run, keyed `<workload> c<n> <target>`. */
  cpuByRun: Record<string, CpuUsage | null>;
}

/**
 * Measures every workload at each of `OVERHEAD_CONCURRENCIES` with the closed-loop hrtime client,
 * `opts.rounds` times. As in the agent completion benchmark, direct and service runs alternate and the one going first flips
 * each round, so drifting noise hits both sides alike.
 */
export async function measureOverhead(
  workloads: Workload[],
  opts: BenchOptions,
  say: (line: string) => void,
): Promise<OverheadRound[]> {
  const rounds: OverheadRound[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    const first = i % 2 === 0 ? "direct" : "service";
    const drains: number[] = [];
    const cpuByRun: Record<string, CpuUsage | null> = {};
    const results: OverheadRound["results"] = {};
    const endRoundCpu = startCpuWindow();
    for (const w of workloads) {
      const order = first === "direct" ? [w.ctx.direct, w.ctx.service] : [w.ctx.service, w.ctx.direct];
      results[w.name] = {};
      for (const c of OVERHEAD_CONCURRENCIES) {
        say(
          `round ${i + 1}/${opts.rounds}: ${w.name} at c=${c}, ${opts.durationS} s each (${order.map((t) => t.name).join(" then ")})`,
        );
        results[w.name][`c${c}`] = await pair(w.ctx, order, drains, { kind: `${w.name} c${c}`, byRun: cpuByRun }, (t) =>
          measureClosedLoop([t], c, opts.durationS),
        );
      }
    }
    rounds.push({
      round: i + 1,
      order: first === "direct" ? ["direct", "service"] : ["service", "direct"],
      results,
      queueDrainMs: drains,
      cpu: endRoundCpu(),
      cpuByRun,
    });
  }
  return rounds;
}
