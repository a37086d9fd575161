import type { CpuUsage } from "../probes/cpu-usage";
import type { MachineInfo } from "../probes/machine-info";
import { busyCell, cpuHeaderLine, stealCell } from "../report/cpu-cells";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";
import type { HeadlineRow } from "../scenario";
import { AGENT_NAMES, type SwarmShape } from "../targets/swarm-body";
import { SWARM_SIM_LATENCY_MS, type SwarmCase } from "./swarm-cases";
import type { SwarmRunResult } from "./swarms-measure";

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
      /** Median over the checked runs; `depths` per checked run (they differ when an LLM decides). */
      depth: number;
      depths: number[];
      /** How each run's depth was read from its response, and runs that could not be checked. */
      depthNotes: string[];
      /** For the median depth. */
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
function expectation(depth: number): { expectedMs: number; toleranceMs: number } {
  const expectedMs = depth * SWARM_SIM_LATENCY_MS;
  return { expectedMs, toleranceMs: RELATIVE_TOLERANCE * expectedMs + ABSOLUTE_TOLERANCE_MS };
}

/** A run's depth: from its response for types with `depthFromResponse`, else the static formula; null when not checkable. */
function runDepth(swarmCase: SwarmCase, run: SwarmRunResult): number | null {
  if (swarmCase.depthFromResponse)
    return run.responseDepth && "depth" in run.responseDepth ? run.responseDepth.depth : null;
  return "skip" in swarmCase.depth || !swarmCase.depth.of ? null : swarmCase.depth.of(swarmCase.shape);
}

/**
 * Judges one measured type from its runs (medians over repetitions). Each run is held against its
 * own depth (which differs between runs when an LLM decides it): pass when the median of
 * (execution_time − expected) / allowed is within ±1, which for a fixed depth is exactly
 * "median execution_time within the tolerance". Runs whose depth is not checkable are left out.
 */
export function judgeType(type: string, swarmCase: SwarmCase, runs: SwarmRunResult[]): SwarmOutcome {
  if ("skip" in swarmCase.depth && !swarmCase.depthFromResponse)
    return { type, kind: "skipped", note: swarmCase.depth.skip };
  // A failed run is not a fast run: any error makes the type's figure meaningless.
  const errors = runs.filter((r) => r.error).map((r) => `rep ${r.rep}: ${r.error}`);
  if (errors.length || runs.length === 0) return { type, kind: "error", errors: errors.length ? errors : ["no runs"] };
  const uncheckable = runs.flatMap((r) =>
    r.responseDepth && "uncheckable" in r.responseDepth
      ? [`rep ${r.rep}: not checkable, ${r.responseDepth.uncheckable}`]
      : [],
  );
  const checked = runs
    .map((r) => ({ r, depth: runDepth(swarmCase, r) }))
    .filter((x): x is { r: SwarmRunResult; depth: number } => x.depth !== null);
  if (!checked.length)
    return { type, kind: "skipped", note: `no run's depth was checkable (${uncheckable.join("; ")})` };
  const per = checked.map(({ r, depth }) => ({ r, depth, execMs: r.executionS! * 1_000, ...expectation(depth) }));
  const depths = per.map((p) => p.depth);
  const depth = median(depths);
  const { expectedMs, toleranceMs } = expectation(depth);
  const medianExecMs = median(per.map((p) => p.execMs));
  const steals = per.map((p) => p.r.cpu?.stealPct).filter((s): s is number => s !== undefined);
  const formula = "formula" in swarmCase.depth ? swarmCase.depth.formula : "";
  return {
    type,
    kind: "measured",
    formula,
    depth,
    depths,
    depthNotes: [
      ...per.flatMap((p) =>
        p.r.responseDepth && "depth" in p.r.responseDepth
          ? [`rep ${p.r.rep}: depth ${p.depth} = ${p.r.responseDepth.note}`]
          : [],
      ),
      ...uncheckable,
    ],
    expectedMs,
    medianExecMs,
    ratio: median(per.map((p) => p.execMs / p.expectedMs)),
    toleranceMs,
    pass: Math.abs(median(per.map((p) => (p.execMs - p.expectedMs) / p.toleranceMs))) <= 1,
    medianWallMs: median(per.map((p) => p.r.wallMs)),
    calls: median(per.map((p) => p.r.calls.calls)),
    callsWithoutLatency: median(per.map((p) => p.r.calls.withoutLatency)),
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
      const distinct = [...new Set(o.depths)];
      const depthCell =
        o.formula === String(o.depth)
          ? o.formula
          : `${o.formula} = ${distinct.length > 1 ? o.depths.join("/") : o.depth}`;
      return [
        o.type,
        shape,
        depthCell,
        msCell(o.expectedMs),
        msCell(o.medianExecMs),
        `${o.ratio.toFixed(2)} x`,
        `±${Math.round(o.toleranceMs)} ms`,
        calls,
        verdict,
        o.stealPct === null ? "n/a" : `${o.stealPct.toFixed(1)}%`,
      ];
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
  const title = `Swarm completion depth efficiency at ${SWARM_SIM_LATENCY_MS} ms per LLM call — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`;
  const how =
    `execution_time from the response, median of ${opts.reps} run(s) per type${opts.quick ? " (--quick: smoke test, not a result)" : ""}; ` +
    `expected = depth (docs/swarm-types.md) x ${SWARM_SIM_LATENCY_MS} ms; pass = within ${RELATIVE_TOLERANCE * 100}% + ${ABSOLUTE_TOLERANCE_MS} ms of expected, either way\n` +
    cpuHeaderLine(
      cpu,
      runs.map((r) => r.cpu),
    );
  const rows = [
    ["swarm type", "shape", "depth", "expected", "execution_time", "ratio", "allowed", "LLM calls", "result", "steal"],
    ...outcomes.map((o) => row(o, cases)),
  ];
  const notes: string[] = [];
  for (const o of outcomes) {
    if (o.kind === "skipped") notes.push(`${o.type}: skipped, depth = ${o.note}`);
    if (o.kind === "error") notes.push(...o.errors.map((e) => `${o.type}: ${e}`));
    if (o.kind === "no case") notes.push(`${o.type}: the service lists it, but swarm-cases.ts has no entry (add one)`);
    if (o.kind === "measured") notes.push(...o.depthNotes.map((n) => `${o.type}: ${n}`));
    if (o.kind === "measured" && !o.pass && o.callsWithoutLatency) {
      notes.push(
        `${o.type}: ${o.callsWithoutLatency} call(s) per run without sim_latency_ms (internal agents without the request agents' llm_args?)`,
      );
    }
  }
  return [
    title,
    how,
    "",
    textTable(rows, 2),
    ...(notes.length ? ["", "notes:", ...notes.map((n) => `  ${n}`)] : []),
  ].join("\n");
}

/** One line per measured run, so the spread and a steal spike behind an outlier are visible. */
export function renderSwarmRunsTable(runs: SwarmRunResult[]): string {
  const rows = [["swarm type", "rep", "depth", "execution_time", "wall", "LLM calls", "steal", "busy"]];
  for (const r of runs) {
    const d = r.responseDepth ? ("depth" in r.responseDepth ? String(r.responseDepth.depth) : "n/c") : "";
    rows.push([
      r.type,
      String(r.rep),
      d,
      r.executionS === null ? (r.error ? "error" : "n/a") : msCell(r.executionS * 1_000),
      msCell(r.wallMs),
      String(r.calls.calls),
      stealCell(r.cpu),
      busyCell(r.cpu),
    ]);
  }
  return textTable(rows, 2);
}

/** Its lines in the combined table: one per swarm type. */
export function swarmsHeadline(outcomes: SwarmOutcome[]): HeadlineRow[] {
  return outcomes.map((o) => {
    const row = { area: "depth", figure: o.type, baseline: "", measured: "", versus: "", steal: "" };
    if (o.kind !== "measured") return { ...row, measured: o.kind === "error" ? "ERROR" : o.kind };
    return {
      ...row,
      figure: `${o.type} (depth ${o.depth})`,
      baseline: `expected ${msCell(o.expectedMs)}`,
      measured: `${msCell(o.medianExecMs)}${o.pass ? "" : " FAIL"}`,
      versus: `${o.ratio.toFixed(2)} x`,
      steal: o.stealPct === null ? "n/a" : `${o.stealPct.toFixed(1)}%`,
    };
  });
}
