import { median } from "../report/stats";
import { cpuMsPerRun } from "../probes/proc-accounting";
import type { DeployedRound, LoadWindow } from "./deployed-measure";

/** CPU ms per run of each counted process (role), and of all of them. */
export interface CpuPerRun {
  byRole: Record<string, number>;
  total: number;
}

/** One stack's figures: medians over rounds. */
export interface StackSummary {
  addedP50Ms: number;
  addedP99Ms: number;
  agentFewPerSec: number;
  agentFewP50Ms: number;
  agentPerSec: number;
  agentP50Ms: number;
  swarmPerSec: number;
  cpuPerAgentRun: CpuPerRun;
  cpuPerSwarm: CpuPerRun;
  /** Failed requests over every measured run (errors, non-2xx, wrong bodies). */
  failures: number;
}

/** Roles seen in any window, in first-seen order (the Procfile's order, then Postgres and Redis). */
function rolesOf(windows: LoadWindow[]): string[] {
  const roles: string[] = [];
  for (const w of windows) for (const r of Object.keys(w.cpuByRole)) if (!roles.includes(r)) roles.push(r);
  return roles;
}

/** Median over windows of each role's CPU ms per finished run, and of their sum. */
export function cpuPerRun(windows: LoadWindow[]): CpuPerRun {
  const byRole: Record<string, number> = {};
  for (const role of rolesOf(windows))
    byRole[role] = median(windows.map((w) => cpuMsPerRun(w.cpuByRole[role] ?? 0, w.runs)));
  const totals = windows.map((w) =>
    cpuMsPerRun(
      Object.values(w.cpuByRole).reduce((a, b) => a + b, 0),
      w.runs,
    ),
  );
  return { byRole, total: median(totals) };
}

/** The figures of stack `label` over all rounds. */
export function summarizeStack(rounds: DeployedRound[], label: string): StackSummary {
  const mine = rounds.map((r) => ({ direct: r.direct, s: r.stacks[label] }));
  const m = (pick: (x: (typeof mine)[number]) => number) => median(mine.map(pick));
  let failures = 0;
  for (const { s } of mine) {
    failures += s.sequential.errors + s.sequential.non2xx + s.sequential.badBodies;
    failures += s.agent.errors + s.agent.non2xx + s.agentFew.errors + s.agentFew.non2xx;
    failures += s.swarm.errors + s.swarm.non2xx + s.swarm.badBodies;
  }
  return {
    addedP50Ms: m((x) => x.s.sequential.latencyMs.p50 - x.direct.latencyMs.p50),
    addedP99Ms: m((x) => x.s.sequential.latencyMs.p99 - x.direct.latencyMs.p99),
    agentFewPerSec: m((x) => x.s.agentFew.okPerSec),
    agentFewP50Ms: m((x) => x.s.agentFew.latencyMs.p50),
    agentPerSec: m((x) => x.s.agent.okPerSec),
    agentP50Ms: m((x) => x.s.agent.latencyMs.p50),
    swarmPerSec: m((x) => x.s.swarm.requestsPerSec),
    cpuPerAgentRun: cpuPerRun(mine.map((x) => x.s.agent.window)),
    cpuPerSwarm: cpuPerRun(mine.map((x) => x.s.swarm.window)),
    failures,
  };
}
