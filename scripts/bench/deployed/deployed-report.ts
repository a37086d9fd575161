import type { CommitLatency } from "../probes/commit-latency";
import type { ProcessUsage } from "../probes/process-watch";
import { busyCell, stealCell } from "../report/cpu-cells";
import { textTable } from "../report/text-table";
import { AGENT_CLIENTS, AGENT_FEW_CLIENTS, type DeployedRound, type MemoryResult } from "./deployed-measure";
import type { CpuPerRun, StackSummary } from "./deployed-summary";

/** `current / baseline` as `0.85 x`; `n/a` when either is missing or the baseline is 0. */
export function ratioCell(current: number, baseline: number): string {
  if (!Number.isFinite(current) || !Number.isFinite(baseline) || baseline === 0) return "n/a";
  return `${(current / baseline).toFixed(2)} x`;
}

const fixed = (digits: number) => (v: number) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
const ms2 = fixed(2);
const whole = fixed(0);
const signedMs = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? "+" : ""}${v.toFixed(2)}` : "n/a");

/** The headline table: one row per figure of docs/performance.md's deployed table, current and baseline side by side. */
export function renderFigures(cur: StackSummary, base: StackSummary, swarmClients: number): string {
  const row = (figure: string, c: number, b: number, cell: (v: number) => string) => [
    figure,
    cell(c),
    cell(b),
    ratioCell(c, b),
  ];
  return textTable([
    ["figure", "current", "baseline", "current / baseline"],
    row("agent c=1 added over the simulator, p50 (ms)", cur.addedP50Ms, base.addedP50Ms, signedMs),
    row("agent c=1 added over the simulator, p99 (ms)", cur.addedP99Ms, base.addedP99Ms, signedMs),
    row(`agent c=${AGENT_FEW_CLIENTS} keep-alive, completions/s`, cur.agentFewPerSec, base.agentFewPerSec, whole),
    row(`agent c=${AGENT_FEW_CLIENTS} keep-alive, p50 (ms)`, cur.agentFewP50Ms, base.agentFewP50Ms, fixed(1)),
    row(`agent c=${AGENT_CLIENTS} keep-alive, completions/s`, cur.agentPerSec, base.agentPerSec, whole),
    row(`agent c=${AGENT_CLIENTS} keep-alive, p50 (ms)`, cur.agentP50Ms, base.agentP50Ms, fixed(1)),
    row(`ConcurrentWorkflow x3 c=${swarmClients}, runs/s`, cur.swarmPerSec, base.swarmPerSec, whole),
    row("CPU per agent completion, all processes (ms)", cur.cpuPerAgentRun.total, base.cpuPerAgentRun.total, ms2),
    row("CPU per 3-agent swarm, all processes (ms)", cur.cpuPerSwarm.total, base.cpuPerSwarm.total, ms2),
    ["failed requests", String(cur.failures), String(base.failures), ""],
  ]);
}

/** CPU ms per run of each process, current and baseline, with the total last. */
export function renderCpuTable(what: string, cur: CpuPerRun, base: CpuPerRun): string {
  const roles = [...Object.keys(cur.byRole)];
  for (const r of Object.keys(base.byRole)) if (!roles.includes(r)) roles.push(r);
  const rows = [[`CPU ms per ${what}`, "current", "baseline", "current / baseline"]];
  for (const r of roles) {
    const c = cur.byRole[r] ?? NaN;
    const b = base.byRole[r] ?? NaN;
    rows.push([r, ms2(c), ms2(b), ratioCell(c, b)]);
  }
  rows.push(["all processes", ms2(cur.total), ms2(base.total), ratioCell(cur.total, base.total)]);
  return textTable(rows);
}

function byProcess(usage: ProcessUsage[], label: string): Map<string, ProcessUsage> {
  const prefix = `${label} `;
  return new Map(usage.filter((u) => u.name.startsWith(prefix)).map((u) => [u.name.slice(prefix.length), u]));
}

/**
 * RSS of each Node process: peak and end over the rounds, and with a soak, at the end of its
 * first minute (warm-up), its peak and its end: memory that holds still has end ≈ first minute.
 */
export function renderMemoryTable(memory: MemoryResult, labels: [string, string]): string {
  const mib = (u: ProcessUsage | undefined, pick: (u: ProcessUsage) => number) => (u ? whole(pick(u)) : "n/a");
  const sides = labels.map((l) => ({
    rounds: byProcess(memory.rounds, l),
    first: byProcess(memory.soak?.afterFirstMinute ?? [], l),
    soak: byProcess(memory.soak?.whole ?? [], l),
  }));
  const names = [...new Set([...sides[0].rounds.keys(), ...sides[1].rounds.keys()])];
  const header = ["RSS MiB", ...labels.map((l) => `${l} rounds peak / end`)];
  if (memory.soak) header.push(...labels.map((l) => `${l} soak 1st min / peak / end`));
  const rows = [header];
  for (const n of names) {
    const row = [
      n,
      ...sides.map((s) => `${mib(s.rounds.get(n), (u) => u.peakRssMiB)} / ${mib(s.rounds.get(n), (u) => u.endRssMiB)}`),
    ];
    if (memory.soak)
      row.push(
        ...sides.map(
          (s) =>
            `${mib(s.first.get(n), (u) => u.endRssMiB)} / ${mib(s.soak.get(n), (u) => u.peakRssMiB)} / ${mib(s.soak.get(n), (u) => u.endRssMiB)}`,
        ),
      );
    rows.push(row);
  }
  const stalls = Object.entries(memory.soak?.stalled ?? {}).map(
    ([label, s]) =>
      `${label} stopped draining in minute ${s.minute} of its soak (${s.error}); its later slices were skipped`,
  );
  return [textTable(rows), ...stalls].join("\n");
}

/** One line per measured window: which stack, how many runs, and the machine's load and steal then. */
export function renderWindows(rounds: DeployedRound[]): string {
  const rows = [["round", "stack", "window", "runs", "load 1m", "steal", "busy"]];
  for (const r of rounds) {
    for (const label of r.order) {
      const s = r.stacks[label];
      for (const [what, w] of [
        [`agent c=${AGENT_CLIENTS}`, s.agent.window],
        ["swarm", s.swarm.window],
      ] as const) {
        rows.push([
          String(r.round),
          label,
          what,
          String(w.runs),
          w.loadAvg1m.toFixed(2),
          stealCell(w.cpu),
          busyCell(w.cpu),
        ]);
      }
    }
  }
  return textTable(rows, 2);
}

/** The durable-commit line: what one synchronous commit costs a waiting client on this Postgres, before and after the rounds. */
export function renderCommitFloor(before: CommitLatency, after: CommitLatency): string {
  const ms = (c: CommitLatency) => `${c.p50Ms.toFixed(2)} / ${c.p99Ms.toFixed(2)} ms`;
  return (
    `durable commit on this Postgres, p50 / p99 (${before.commits} one-row commits; a run's completion waits for one): ` +
    `${ms(before)} before the rounds, ${ms(after)} after`
  );
}
