import { loadavg } from "node:os";
import { measureClosedLoop } from "../client/closed-loop";
import { parseJsonObject, type HttpTarget } from "../client/http-target";
import { startCpuWindow } from "../probes/cpu-usage";
import { busyCell, stealCell } from "../report/cpu-cells";
import { textTable } from "../report/text-table";
import { swarmBody, type SwarmShape } from "../targets/swarm-body";
import { startCpuAccount } from "../probes/cpu-account";
import type { DeployedStack } from "./deployed-stack";

/** One request shape whose CPU is measured: what it sends and how many LLM calls it makes. */
interface GrowthCase {
  label: string;
  path: string;
  body: unknown;
  llmCalls: number;
  queue: "agent" | "swarm";
}

const agent = (name: string) => ({ agent_name: name, system_prompt: "You are concise." });
const swarm = (type: string, shape: SwarmShape): GrowthCase => ({
  label: `${type} N=${shape.agents} L=${shape.loops}`,
  path: "/v1/swarm/completions",
  body: swarmBody(type, shape, "growth", 0),
  llmCalls: shape.agents * shape.loops,
  queue: "swarm",
});
const batch = (items: number): GrowthCase => ({
  label: `agent batch of ${items}`,
  path: "/v1/agent/batch/completions",
  body: Array.from({ length: items }, (_, i) => ({
    agent_config: agent(`Item ${i}`),
    task: `Name use ${i} of honey.`,
  })),
  llmCalls: items,
  queue: "agent",
});

/** How CPU per request grows with agents (in parallel), loops (in sequence) and batch size. */
const CASES: GrowthCase[] = [
  swarm("ConcurrentWorkflow", { agents: 1, loops: 1 }),
  swarm("ConcurrentWorkflow", { agents: 3, loops: 1 }),
  swarm("ConcurrentWorkflow", { agents: 6, loops: 1 }),
  swarm("SequentialWorkflow", { agents: 3, loops: 1 }),
  swarm("SequentialWorkflow", { agents: 3, loops: 2 }),
  swarm("SequentialWorkflow", { agents: 3, loops: 4 }),
  batch(1),
  batch(10),
  batch(50),
];

/** Requests in flight per case (closed loop): enough to keep every process busy. */
const CLIENTS = 20;

export interface GrowthRow {
  label: string;
  llmCalls: number;
  requests: number;
  cpuMsPerRequest: number;
  cpuMsPerCall: number;
  loadAvg1m: number;
  steal: string;
  busy: string;
  failed: number;
}

function target(stack: DeployedStack, c: GrowthCase): HttpTarget {
  return {
    name: c.label,
    url: `${stack.apiUrl}${c.path}`,
    method: "POST",
    headers: { "x-api-key": stack.apiKey, "content-type": "application/json" },
    body: JSON.stringify(c.body),
    checkBody: (body) => (parseJsonObject(body) ? null : `not a JSON answer: ${body.slice(0, 200)}`),
  };
}

/**
 * Each case in turn on one stack, `durationS` of closed-loop load at CLIENTS requests in flight:
 * CPU of every process of the stack (Postgres and Redis included) per answered request and per
 * LLM call, the simulator answering at once.
 */
export async function measureGrowth(
  stack: DeployedStack,
  durationS: number,
  say: (line: string) => void,
): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  for (const c of CASES) {
    say(`growth: ${c.label} at c=${CLIENTS}, ${durationS} s`);
    const endCpu = startCpuWindow();
    const endAccount = startCpuAccount(stack.pids);
    const result = await measureClosedLoop([target(stack, c)], CLIENTS, durationS);
    await stack.queues[c.queue].waitUntilIdle(120_000);
    const cpuS = Object.values(endAccount()).reduce((a, b) => a + b, 0);
    const cpu = endCpu();
    const answered = result.requests - result.errors - result.non2xx - result.badBodies;
    const perRequest = answered > 0 ? (cpuS * 1_000) / answered : NaN;
    rows.push({
      label: c.label,
      llmCalls: c.llmCalls,
      requests: answered,
      cpuMsPerRequest: perRequest,
      cpuMsPerCall: perRequest / c.llmCalls,
      loadAvg1m: loadavg()[0],
      steal: stealCell(cpu),
      busy: busyCell(cpu),
      failed: result.errors + result.non2xx + result.badBodies,
    });
  }
  return rows;
}

export function renderGrowth(rows: GrowthRow[]): string {
  return textTable([
    ["request", "LLM calls", "answered", "CPU ms / request", "CPU ms / LLM call", "load 1m", "steal", "busy", "failed"],
    ...rows.map((r) => [
      r.label,
      String(r.llmCalls),
      String(r.requests),
      r.cpuMsPerRequest.toFixed(2),
      r.cpuMsPerCall.toFixed(2),
      r.loadAvg1m.toFixed(2),
      r.steal,
      r.busy,
      String(r.failed),
    ]),
  ]);
}
