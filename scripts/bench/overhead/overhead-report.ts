import type { BenchOptions } from "../bench-options";
import type { SequentialResult } from "../client/closed-loop";
import type { CpuUsage } from "../probes/cpu-usage";
import type { MachineInfo } from "../probes/machine-info";
import { cpuHeaderLine } from "../report/cpu-cells";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";
import type { HeadlineRow } from "../scenario";
import { OVERHEAD_CONCURRENCIES, type OverheadRound } from "./overhead-measure";

/** Medians over rounds of one side (direct or service) at one concurrency. */
interface OverheadSide {
  p50Ms: number;
  p99Ms: number;
  /** Successful operations per second. */
  okPerSec: number;
  /** Errors, non-2xx and bad bodies over all rounds. */
  failures: number;
  /** Median steal of its runs, % (null without /proc/stat). */
  stealPct: number | null;
}

/** One workload at one concurrency. */
export interface OverheadCell {
  workload: string;
  concurrency: number;
  direct: OverheadSide;
  service: OverheadSide;
  addedP50Ms: number;
  addedP99Ms: number;
}

function side(rounds: OverheadRound[], workload: string, c: number, target: string): OverheadSide {
  const runs = rounds.map((r) => r.results[workload][`c${c}`][target]);
  const m = (pick: (x: SequentialResult) => number) => median(runs.map(pick));
  const steals = rounds
    .map((r) => r.cpuByRun[`${workload} c${c} ${target}`])
    .filter((x): x is CpuUsage => x !== null && x !== undefined);
  return {
    p50Ms: m((x) => x.latencyMs.p50),
    p99Ms: m((x) => x.latencyMs.p99),
    okPerSec: m((x) => x.latencyMs.count / x.durationS),
    failures: runs.reduce((n, x) => n + x.errors + x.non2xx + x.badBodies, 0),
    stealPct: steals.length ? median(steals.map((s) => s.stealPct)) : null,
  };
}

/** Every workload × concurrency, medians over rounds, service minus direct. */
export function summarizeOverhead(rounds: OverheadRound[], workloads: string[]): OverheadCell[] {
  return workloads.flatMap((workload) =>
    OVERHEAD_CONCURRENCIES.map((concurrency) => {
      const direct = side(rounds, workload, concurrency, "direct");
      const service = side(rounds, workload, concurrency, "service");
      return {
        workload,
        concurrency,
        direct,
        service,
        addedP50Ms: service.p50Ms - direct.p50Ms,
        addedP99Ms: service.p99Ms - direct.p99Ms,
      };
    }),
  );
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const plus = (v: number) => `${v >= 0 ? "+" : ""}${ms(v)}`;
const rate = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const steal = (s: number | null) => (s === null ? "n/a" : `${s.toFixed(1)}%`);
/** The worse of the two sides' steal: either side's figure is only as good as its window. */
const worstSteal = (c: OverheadCell) =>
  c.direct.stealPct === null || c.service.stealPct === null ? null : Math.max(c.direct.stealPct, c.service.stealPct);

/** True when any measured request of either side failed: the figures are then not a result. */
export function hasOverheadFailures(cells: OverheadCell[]): boolean {
  return cells.some((c) => c.direct.failures + c.service.failures > 0);
}

/** The scenario's table: one row per workload and concurrency. */
export function renderOverheadTable(
  cells: OverheadCell[],
  machine: MachineInfo,
  opts: BenchOptions,
  rounds: OverheadRound[],
  overallCpu: CpuUsage | null,
): string {
  const title = `Overhead: direct simulator calls vs through Apiary, zero simulated latency — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`;
  const how =
    `${opts.rounds} round(s) x ${opts.durationS} s per run, medians over rounds${opts.quick ? " (--quick: smoke test, not a result)" : ""}; ` +
    `closed-loop hrtime client (c loops, each sends its next request when its answer is in); ` +
    `the swarm's direct baseline is its 3 LLM calls sent at once (ends with the slowest)\n` +
    cpuHeaderLine(
      overallCpu,
      rounds.map((r) => r.cpu),
    );
  const rows = [
    [
      "workload",
      "c",
      "direct p50 / p99 (ms)",
      "Apiary p50 / p99 (ms)",
      "added p50 / p99 (ms)",
      "ok/s direct",
      "ok/s Apiary",
      "failures",
      "steal d / s",
    ],
  ];
  for (const c of cells) {
    rows.push([
      c.workload,
      String(c.concurrency),
      `${ms(c.direct.p50Ms)} / ${ms(c.direct.p99Ms)}`,
      `${ms(c.service.p50Ms)} / ${ms(c.service.p99Ms)}`,
      `${plus(c.addedP50Ms)} / ${plus(c.addedP99Ms)}`,
      rate(c.direct.okPerSec),
      rate(c.service.okPerSec),
      `${c.direct.failures} / ${c.service.failures}`,
      `${steal(c.direct.stealPct)} / ${steal(c.service.stealPct)}`,
    ]);
  }
  return [title, how, "", textTable(rows, 2)].join("\n");
}

/** Its lines in the combined table. */
export function overheadHeadline(cells: OverheadCell[]): HeadlineRow[] {
  return cells.map((c) => ({
    area: "overhead",
    figure: `${c.workload} c=${c.concurrency} p50 / p99`,
    baseline: `direct ${ms(c.direct.p50Ms)} / ${ms(c.direct.p99Ms)} ms`,
    measured: `${ms(c.service.p50Ms)} / ${ms(c.service.p99Ms)} ms${c.direct.failures + c.service.failures ? ` (${c.direct.failures + c.service.failures} failed)` : ""}`,
    versus: `${plus(c.addedP50Ms)} / ${plus(c.addedP99Ms)} ms`,
    steal: steal(worstSteal(c)),
  }));
}

/** What went wrong in the measured runs, for the lines under the table. */
export function overheadProblems(rounds: OverheadRound[]): string[] {
  const out: string[] = [];
  for (const r of rounds) {
    for (const [workload, byC] of Object.entries(r.results)) {
      for (const [c, byTarget] of Object.entries(byC)) {
        for (const [target, x] of Object.entries(byTarget)) {
          if (x.problems.length) out.push(`round ${r.round} ${workload} ${c} ${target}: ${x.problems.join("; ")}`);
        }
      }
    }
  }
  return out;
}
