import { busyCell, cpuHeaderLine, stealCell, type CpuUsage } from "./cpu-usage";
import type { MachineInfo } from "./machine-info";
import { median } from "./stats";
import { AGENT_NAMES, SWARM_SIM_LATENCY_MS, type SwarmCase, type SwarmShape } from "./swarm-cases";
import type { SwarmRunResult } from "./swarms-measure";
import { textTable } from "./text-table";

/** The check: `execution_time` within 15% + 100 ms of depth × latency, either way. */
const RELATIVE_TOLERANCE = 0.15;
const ABSOLUTE_TOLERANCE_MS = 100;

/** How one swarm type came out. */
export type SwarmOutcome =
  | { type: string; kind: "not available" }
  | { type: string; kind: "skipped"; note: string }
  | { type: string; kind: "no case" }
  | { type: string; kind: "error"; errors: string[] }
  | {
      type: string;
      kind: "measured";
      formula: string;
      depth: number;
      expectedMs: number;
      medianExecMs: number;
      /** Median execution_time / expected. */
      ratio: number;
      toleranceMs: number;
      pass: boolean;
      medianWallMs: number;
      /** Median LLM calls per run, and of them calls without `sim_latency_ms`. */
      calls: number;
      callsWithoutLatency: number;
      /** Median over the type's runs. */
      stealPct: number | null;
    };

/** Expected wall time for a depth, and how far off the check allows. */
export function expectation(depth: number): { expectedMs: number; toleranceMs: number } {
  const expectedMs = depth * SWARM_SIM_LATENCY_MS;
  return { expectedMs, toleranceMs: RELATIVE_TOLERANCE * expectedMs + ABSOLUTE_TOLERANCE_MS };
}

/** Judges one measured type from its runs (medians over repetitions). */
export function judgeType(type: string, swarmCase: SwarmCase, runs: SwarmRunResult[]): SwarmOutcome {
  if ("skip" in swarmCase.depth) return { type, kind: "skipped", note: swarmCase.depth.skip };
  // A failed run is not a fast run: any error makes the type's figure meaningless.
  const errors = runs.filter((r) => r.error).map((r) => `rep ${r.rep}: ${r.error}`);
  if (errors.length || runs.length === 0) return { type, kind: "error", errors: errors.length ? errors : ["no runs"] };
  const depth = swarmCase.depth.of(swarmCase.shape);
  const { expectedMs, toleranceMs } = expectation(depth);
  const medianExecMs = median(runs.map((r) => r.executionS! * 1_000));
  const steals = runs.map((r) => r.cpu?.stealPct).filter((s): s is number => s !== undefined);
  return {
    type,
    kind: "measured",
    formula: swarmCase.depth.formula,
    depth,
    expectedMs,
    medianExecMs,
    ratio: medianExecMs / expectedMs,
    toleranceMs,
    pass: Math.abs(medianExecMs - expectedMs) <= toleranceMs,
    medianWallMs: median(runs.map((r) => r.wallMs)),
    calls: median(runs.map((r) => r.calls.calls)),
    callsWithoutLatency: median(runs.map((r) => r.calls.withoutLatency)),
    stealPct: steals.length ? median(steals) : null,
  };
}

/** True when the run should exit 1: a measured type off its depth, or an available type that failed. */
export function hasFailures(outcomes: SwarmOutcome[]): boolean {
  return outcomes.some((o) => o.kind === "error" || (o.kind === "measured" && !o.pass));
}

const msCell = (v: number) => `${Math.round(v)} ms`;

/** `N=4 L=1 flow=Ada -> Ben, Cy -> Dee`: what the request looked like, in the formulas' letters. */
function describeShape(s: SwarmShape | undefined): string {
  if (!s) return "";
  const parts = [`N=${s.agents}`, `L=${s.loops}`];
  if (s.tasks) parts.push(`T=${s.tasks}`);
  if (s.heavyLoops) parts.push(`loops=${s.heavyLoops}`);
  for (const [i, role] of Object.entries(s.roles ?? {})) parts.push(`${role}=${AGENT_NAMES[Number(i)]}`);
  if (s.flow) parts.push(`flow=${s.flow.replace(/\s+/g, "")}`);
  return parts.join(" ");
}

function row(o: SwarmOutcome, cases: Record<string, SwarmCase>): string[] {
  const shape = describeShape(cases[o.type]?.shape);
  // depth … LLM calls stay empty for rows that were not measured.
  const blank = ["", "", "", "", "", ""];
  switch (o.kind) {
    case "measured": {
      const verdict = o.pass ? "PASS" : o.medianExecMs > o.expectedMs ? "FAIL (slow)" : "FAIL (fast)";
      const calls = `${o.calls}${o.callsWithoutLatency ? ` (${o.callsWithoutLatency} at 0 ms)` : ""}`;
      return [o.type, shape, o.formula === String(o.depth) ? o.formula : `${o.formula} = ${o.depth}`, msCell(o.expectedMs), msCell(o.medianExecMs), `${o.ratio.toFixed(2)} x`, `±${Math.round(o.toleranceMs)} ms`, calls, verdict, o.stealPct === null ? "n/a" : `${o.stealPct.toFixed(1)}%`];
    }
    case "error":
      return [o.type, shape, ...blank, "ERROR", ""];
    case "skipped":
      return [o.type, shape, ...blank, "skipped (LLM-decided depth)", ""];
    case "no case":
      return [o.type, "", ...blank, "no entry in swarm-cases.ts", ""];
    case "not available":
      return [o.type, "", ...blank, "not available", ""];
  }
}

/** The main table: one row per swarm type, then notes for the rows that need one. */
export function renderSwarmsTable(
  outcomes: SwarmOutcome[],
  cases: Record<string, SwarmCase>,
  machine: MachineInfo,
  cpu: CpuUsage | null,
  runs: SwarmRunResult[],
  opts: { reps: number; quick: boolean },
): string {
  const title = `E1 swarm depth efficiency at ${SWARM_SIM_LATENCY_MS} ms per LLM call — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`;
  const how =
    `execution_time from the response, median of ${opts.reps} run(s) per type${opts.quick ? " (--quick: smoke test, not a result)" : ""}; ` +
    `expected = depth (SWARM-TYPES.md) x ${SWARM_SIM_LATENCY_MS} ms; pass = within ${RELATIVE_TOLERANCE * 100}% + ${ABSOLUTE_TOLERANCE_MS} ms of expected, either way\n` +
    cpuHeaderLine(cpu, runs.map((r) => r.cpu));
  const rows = [["swarm type", "shape", "depth", "expected", "execution_time", "ratio", "allowed", "LLM calls", "result", "steal"], ...outcomes.map((o) => row(o, cases))];
  const notes: string[] = [];
  for (const o of outcomes) {
    if (o.kind === "skipped") notes.push(`${o.type}: skipped, depth = ${o.note}`);
    if (o.kind === "error") notes.push(...o.errors.map((e) => `${o.type}: ${e}`));
    if (o.kind === "no case") notes.push(`${o.type}: the service lists it, but swarm-cases.ts has no entry (add one)`);
    if (o.kind === "measured" && !o.pass && o.callsWithoutLatency) {
      notes.push(`${o.type}: ${o.callsWithoutLatency} call(s) per run without sim_latency_ms (internal agents without the request agents' llm_args?)`);
    }
  }
  return [title, how, "", textTable(rows, 2), ...(notes.length ? ["", "notes:", ...notes.map((n) => `  ${n}`)] : [])].join("\n");
}

/** One line per measured run, so the spread and a steal spike behind an outlier are visible. */
export function renderSwarmRunsTable(runs: SwarmRunResult[]): string {
  const rows = [["swarm type", "rep", "execution_time", "wall", "LLM calls", "steal", "busy"]];
  for (const r of runs) {
    rows.push([r.type, String(r.rep), r.executionS === null ? (r.error ? "error" : "n/a") : msCell(r.executionS * 1_000), msCell(r.wallMs), String(r.calls.calls), stealCell(r.cpu), busyCell(r.cpu)]);
  }
  return textTable(rows, 2);
}
