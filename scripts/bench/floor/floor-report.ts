import type { LoadWindow } from "../deployed/deployed-measure";
import { cpuPerRun, type CpuPerRun } from "../deployed/deployed-summary";
import { ratioCell } from "../deployed/deployed-report";
import type { CpuByRole } from "../probes/cpu-account";
import { stealCell } from "../report/cpu-cells";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";
import { FLOOR_CLIENTS, type FloorRound } from "./floor-measure";

/**
 * The rows of the CPU table, in order. The real stack's Procfile starts a worker per queue: the
 * agent worker runs the measured runs (`worker`), the swarm and chain workers only poll.
 */
const ROWS = ["web", "worker", "idle workers", "postgres backends", "postgres server", "redis"] as const;

/** The row a process (or service role) of either kind of stack counts in. */
export function rowOf(name: string): string {
  if (name === "worker" || name === "worker-agent") return "worker";
  if (name.startsWith("worker")) return "idle workers";
  return name;
}

/** A window's CPU seconds summed by table row. */
export function byRow(cpu: CpuByRole): CpuByRole {
  const out: CpuByRole = {};
  for (const [name, s] of Object.entries(cpu)) out[rowOf(name)] = (out[rowOf(name)] ?? 0) + s;
  return out;
}

/** One subject's figures: medians over rounds. */
export interface SubjectSummary {
  addedP50Ms: number;
  addedP99Ms: number;
  perSec: number;
  cpu: CpuPerRun;
  failures: number;
}

/** The figures of subject `label` over all rounds. */
export function summarizeSubject(rounds: FloorRound[], label: string): SubjectSummary {
  const mine = rounds.map((r) => ({ direct: r.direct, s: r.subjects[label] }));
  let failures = 0;
  for (const { s } of mine)
    failures += s.sequential.errors + s.sequential.non2xx + s.sequential.badBodies + s.agent.errors + s.agent.non2xx;
  const windows: LoadWindow[] = mine.map(({ s }) => ({
    ...s.agent.window,
    cpuByRole: byRow(s.agent.window.cpuByRole),
  }));
  return {
    addedP50Ms: median(mine.map((x) => x.s.sequential.latencyMs.p50 - x.direct.latencyMs.p50)),
    addedP99Ms: median(mine.map((x) => x.s.sequential.latencyMs.p99 - x.direct.latencyMs.p99)),
    perSec: median(mine.map((x) => x.s.agent.okPerSec)),
    cpu: cpuPerRun(windows),
    failures,
  };
}

const fixed = (digits: number) => (v: number) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
const signed = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? "+" : ""}${v.toFixed(2)}` : "n/a");

/**
 * The result table: one column per subject (the real stack first), one row per figure, and for
 * each floor variant a column of real / floor ratios.
 */
export function renderFloorTable(labels: string[], summaries: Record<string, SubjectSummary>): string {
  const [real, ...floors] = labels;
  const header = ["per single-agent run", ...labels, ...floors.map((f) => `real / ${f}`)];
  const row = (figure: string, pick: (s: SubjectSummary) => number, cell: (v: number) => string) => [
    figure,
    ...labels.map((l) => cell(pick(summaries[l]))),
    ...floors.map((f) => ratioCell(pick(summaries[real]), pick(summaries[f]))),
  ];
  const cpuRows = ROWS.filter((r) => labels.some((l) => r in summaries[l].cpu.byRole)).map((r) =>
    row(`CPU ms: ${r}`, (s) => s.cpu.byRole[r] ?? 0, fixed(2)),
  );
  return textTable([
    header,
    ...cpuRows,
    row("CPU ms: all processes", (s) => s.cpu.total, fixed(2)),
    row(`answers/s at c=${FLOOR_CLIENTS}`, (s) => s.perSec, fixed(0)),
    row("added at c=1 over the simulator, p50 (ms)", (s) => s.addedP50Ms, signed),
    row("added at c=1 over the simulator, p99 (ms)", (s) => s.addedP99Ms, signed),
    ["failed requests", ...labels.map((l) => String(summaries[l].failures))],
  ]);
}

/** One line per measured window: which subject, how many runs, and the machine's load and steal then. */
export function renderFloorWindows(rounds: FloorRound[]): string {
  const rows = [["round", "subject", "runs", "load 1m", "steal"]];
  for (const r of rounds)
    for (const label of r.order) {
      const w = r.subjects[label].agent.window;
      rows.push([String(r.round), label, String(w.runs), w.loadAvg1m.toFixed(2), stealCell(w.cpu)]);
    }
  return textTable(rows, 2);
}
