import type { BenchOptions } from "../bench-options";
import type { CpuUsage } from "../probes/cpu-usage";
import type { MachineInfo } from "../probes/machine-info";
import type { ProcessUsage } from "../probes/process-watch";
import { busyCell, cpuHeaderLine, stealCell } from "../report/cpu-cells";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";
import type { HeadlineRow } from "../scenario";
import { THROUGHPUT_CONCURRENCY, type ThroughputPhase } from "./throughput-measure";

/** The figures of one phase. */
export interface ThroughputSummary {
  webs: number;
  workers: number;
  /** Median over runs of successful completions per second. */
  completionsPerSec: number;
  /** Against the 1-web, 1-worker phase. */
  ratio: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** One summary per phase, fewest processes first (the way scaling reads). */
export function summarizeThroughput(phases: ThroughputPhase[]): ThroughputSummary[] {
  const sorted = [...phases].sort((a, b) => a.webs - b.webs || a.workers - b.workers);
  const rate = (p: ThroughputPhase) => median(p.runs.map((r) => r.latencyMs.count / r.durationS));
  const base = sorted.find((p) => p.webs === 1 && p.workers === 1) ?? sorted[0];
  return sorted.map((p) => ({
    webs: p.webs,
    workers: p.workers,
    completionsPerSec: rate(p),
    ratio: rate(p) / rate(base),
    p50Ms: median(p.runs.map((r) => r.latencyMs.p50)),
    p99Ms: median(p.runs.map((r) => r.latencyMs.p99)),
    failures: p.runs.reduce((n, r) => n + r.errors + r.non2xx + r.badBodies, 0),
  }));
}

/** CPU per process kind as % of one core, e.g. `web 98 · workers 2x31 · sim 4 · client 20`. */
function cpuByKind(processes: ProcessUsage[]): string {
  const kinds: [string, RegExp][] = [
    ["web", /^web/],
    ["workers", /^worker/],
    ["sim", /^llm-simulator$/],
    ["client", /^bench client$/],
  ];
  return kinds
    .map(([label, pattern]) => {
      const of = processes.filter((p) => pattern.test(p.name)).map((p) => Math.round(p.cpuPctOfCore));
      if (!of.length) return null;
      return `${label} ${of.length > 1 ? of.join("+") : of[0]}`;
    })
    .filter(Boolean)
    .join(" · ");
}

const rate = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** The scenario's table: one row per process count, with the CPU each kind of process used. */
export function renderThroughputTable(
  summaries: ThroughputSummary[],
  phases: ThroughputPhase[],
  machine: MachineInfo,
  opts: BenchOptions,
  overallCpu: CpuUsage | null,
): string {
  const title = `Throughput: agent completions per second at zero simulated latency by process count — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`;
  const how =
    `closed loop of ${THROUGHPUT_CONCURRENCY} requests in flight (alternating over the web processes), ${opts.rounds} run(s) x ${opts.durationS} s per row, medians` +
    `${opts.quick ? " (--quick: smoke test, not a result)" : ""}; one stack, processes stopped between rows (measured most processes first)\n` +
    cpuHeaderLine(
      overallCpu,
      phases.map((p) => p.cpu),
    );
  const rows = [
    [
      "web",
      "agent workers",
      "completions/s",
      "vs 1 worker",
      "p50 (ms)",
      "p99 (ms)",
      "failures",
      "CPU % of a core per process",
      "steal",
      "busy",
    ],
  ];
  for (const s of summaries) {
    const phase = phases.find((p) => p.webs === s.webs && p.workers === s.workers)!;
    rows.push([
      String(s.webs),
      String(s.workers),
      rate(s.completionsPerSec),
      s.webs === 1 && s.workers === 1 ? "(baseline)" : `${s.ratio.toFixed(2)} x`,
      ms(s.p50Ms),
      ms(s.p99Ms),
      String(s.failures),
      cpuByKind(phase.processes),
      stealCell(phase.cpu),
      busyCell(phase.cpu),
    ]);
  }
  const cores = machine.cores;
  return [
    title,
    how,
    "",
    textTable(rows, 2),
    "",
    `(${cores} cores = ${cores * 100}% in the CPU column; the benchmark client runs on the same cores)`,
  ].join("\n");
}

/** Its lines in the combined table: every phase against the 1-web, 1-worker baseline. */
export function throughputHeadline(summaries: ThroughputSummary[], phases: ThroughputPhase[]): HeadlineRow[] {
  const base = summaries.find((s) => s.webs === 1 && s.workers === 1);
  return summaries
    .filter((s) => s !== base)
    .map((s) => ({
      area: "throughput",
      figure: `agent completions/s, ${s.workers} agent worker(s), ${s.webs} web`,
      baseline: base ? `1 worker ${rate(base.completionsPerSec)}/s` : "n/a",
      measured: `${rate(s.completionsPerSec)}/s${s.failures ? ` (${s.failures} failed)` : ""}`,
      versus: `${s.ratio.toFixed(2)} x`,
      steal: stealCell(phases.find((p) => p.webs === s.webs && p.workers === s.workers)!.cpu),
    }));
}

/** What went wrong in the measured runs, for the lines under the table. */
export function throughputProblems(phases: ThroughputPhase[]): string[] {
  return phases.flatMap((p) =>
    p.runs
      .filter((r) => r.problems.length)
      .map((r) => `${p.webs} web, ${p.workers} worker(s): ${r.problems.join("; ")}`),
  );
}
