import { loadavg } from "node:os";
import { measureClosedLoop, measureSequential, type SequentialResult } from "../client/closed-loop";
import type { HttpTarget } from "../client/http-target";
import { runLoad, type LoadResult } from "../client/load-run";
import { startCpuWindow, type CpuUsage } from "../probes/cpu-usage";
import { watchProcesses, type ProcessUsage } from "../probes/process-watch";
import { directTarget, serviceTarget } from "../targets/agent-completion-targets";
import { swarmServiceTarget } from "../targets/concurrent-swarm-targets";
import { startCpuAccount, type CpuByRole } from "../probes/cpu-account";
import type { DeployedOptions } from "./deployed-options";
import type { DeployedStack } from "./deployed-stack";
import { roundOrder, soakSlices } from "./schedule";

/** Clients of the agent completion throughput figure (docs/performance.md's table). */
export const AGENT_CLIENTS = 50;
/** Clients of the smaller keep-alive figure (the "10 clients with keep-alive" row). */
export const AGENT_FEW_CLIENTS = 10;
const DRAIN_TIMEOUT_MS = 120_000;
const SOAK_SLICE_S = 30;
const QUICK_SOAK_SLICE_S = 5;

/** One measured window of one stack: its CPU per process, the runs it finished, and the machine's state. */
export interface LoadWindow {
  cpuByRole: CpuByRole;
  /** Runs that succeeded in the window (from the stack's database). */
  runs: number;
  cpu: CpuUsage | null;
  /** 1-minute load average at the end of the window. */
  loadAvg1m: number;
}

/** One stack's figures in one round. */
interface StackRound {
  sequential: SequentialResult;
  agentFew: LoadResult;
  agent: LoadResult & { window: LoadWindow };
  swarm: SequentialResult & { window: LoadWindow };
}

/** One round: the simulator alone at c=1, then every stack in this round's order. */
export interface DeployedRound {
  round: number;
  order: string[];
  direct: SequentialResult;
  stacks: Record<string, StackRound>;
}

/** RSS of every Node process over the rounds and over the soak. */
export interface MemoryResult {
  rounds: ProcessUsage[];
  soak: {
    minutes: number;
    afterFirstMinute: ProcessUsage[];
    whole: ProcessUsage[];
    /** Stacks whose queue stopped draining, with the minute of their soak it happened in. */
    stalled: Record<string, { minute: number; error: string }>;
  } | null;
}

/** Runs `load` as one window of `stack`: CPU of its processes from the first request until its queue is empty. */
async function window<T>(
  stack: DeployedStack,
  kind: "agent" | "swarm",
  load: () => Promise<T>,
): Promise<{ value: T; window: LoadWindow }> {
  const before = await stack.finishedRuns(kind);
  const endCpu = startCpuWindow();
  const endAccount = startCpuAccount(stack.pids);
  const value = await load();
  // Requests autocannon cut off at the deadline still run: their CPU and their runs both count.
  await stack.queues[kind].waitUntilIdle(DRAIN_TIMEOUT_MS);
  const cpuByRole = endAccount();
  const cpu = endCpu();
  const runs = (await stack.finishedRuns(kind)) - before;
  stack.assertAlive();
  return { value, window: { cpuByRole, runs, cpu, loadAvg1m: loadavg()[0] } };
}

function targets(stack: DeployedStack): { agent: HttpTarget; swarm: HttpTarget } {
  return {
    agent: { ...serviceTarget(stack.apiUrl, stack.apiKey), name: stack.checkout.label },
    swarm: { ...swarmServiceTarget(stack.apiUrl, stack.apiKey, 0), name: stack.checkout.label },
  };
}

/** Discarded load on each stack: JIT, pools and caches of every process get going. */
export async function warmUpStacks(
  stacks: DeployedStack[],
  opts: DeployedOptions,
  say: (line: string) => void,
): Promise<void> {
  for (const stack of stacks) {
    say(
      `warming up ${stack.checkout.label} (${opts.warmupS} s of agent completions at c=${AGENT_CLIENTS}, then the swarm)`,
    );
    const t = targets(stack);
    await window(stack, "agent", () => runLoad(t.agent, AGENT_CLIENTS, opts.warmupS));
    await window(stack, "swarm", () => measureClosedLoop([t.swarm], opts.swarmClients, opts.warmupS));
  }
}

/**
 * The rounds: per round the simulator alone at c=1 (the base of "added latency"), then each stack
 * in turn (the first flipping every round): agent completions at c=1 (hrtime loop), at c=10 and at c=50
 * (autocannon, keep-alive) and a 3-agent ConcurrentWorkflow closed loop, each of the last two one CPU window.
 * Only one stack has load at any moment, so the shared Postgres and Redis processes' CPU in a
 * window is that stack's.
 */
export async function measureDeployedRounds(
  stacks: DeployedStack[],
  simulatorUrl: string,
  opts: DeployedOptions,
  say: (line: string) => void,
): Promise<DeployedRound[]> {
  const rounds: DeployedRound[] = [];
  const d = opts.durationS;
  for (let i = 0; i < opts.rounds; i++) {
    const order = roundOrder(i, stacks);
    const label = `round ${i + 1}/${opts.rounds}`;
    say(`${label}: simulator alone at c=1, ${d} s`);
    const direct = await measureSequential(directTarget(simulatorUrl), d);
    const round: DeployedRound = { round: i + 1, order: order.map((s) => s.checkout.label), direct, stacks: {} };
    for (const stack of order) {
      const name = stack.checkout.label;
      const t = targets(stack);
      say(
        `${label} ${name}: agent c=1, agent c=${AGENT_FEW_CLIENTS}, agent c=${AGENT_CLIENTS}, ConcurrentWorkflow x3 c=${opts.swarmClients}, ${d} s each`,
      );
      const sequential = await measureSequential(t.agent, d);
      const agentFew = await runLoad(t.agent, AGENT_FEW_CLIENTS, d);
      await stack.queues.agent.waitUntilIdle(DRAIN_TIMEOUT_MS);
      const agent = await window(stack, "agent", () => runLoad(t.agent, AGENT_CLIENTS, d));
      const swarm = await window(stack, "swarm", () => measureClosedLoop([t.swarm], opts.swarmClients, d));
      round.stacks[name] = {
        sequential,
        agentFew,
        agent: { ...agent.value, window: agent.window },
        swarm: { ...swarm.value, window: swarm.window },
      };
    }
    rounds.push(round);
  }
  return rounds;
}

/** The Node processes of every stack, named `<label> <process>`, for the RSS watch. */
export function nodeProcesses(stacks: DeployedStack[]): { name: string; pid: number }[] {
  return stacks.flatMap((s) =>
    Object.entries(s.pids.node).map(([name, pid]) => ({ name: `${s.checkout.label} ${name}`, pid })),
  );
}

/**
 * The soak: agent completions at c=50 for `opts.soakMinutes` per stack, in alternating slices, with every Node
 * process's RSS sampled throughout. The first minute's figures are kept apart: memory is expected
 * to grow while pools and caches fill, and hold still after.
 */
export async function soak(
  stacks: DeployedStack[],
  opts: DeployedOptions,
  say: (line: string) => void,
): Promise<MemoryResult["soak"]> {
  if (opts.soakMinutes <= 0) return null;
  const slices = soakSlices(opts.soakMinutes, opts.quick ? QUICK_SOAK_SLICE_S : SOAK_SLICE_S, stacks);
  const watch = watchProcesses(nodeProcesses(stacks), 250);
  let firstMinute = watchProcesses(nodeProcesses(stacks), 250);
  let afterFirstMinute: ProcessUsage[] | null = null;
  const started = performance.now();
  const stalled: Record<string, { minute: number; error: string }> = {};
  const loaded: Record<string, number> = {};
  say(
    `soak: agent completions at c=${AGENT_CLIENTS} for ${opts.soakMinutes} min per stack, ${slices.length} alternating slices`,
  );
  for (const slice of slices) {
    const label = slice.stack.checkout.label;
    if (stalled[label]) continue;
    const t = targets(slice.stack);
    await runLoad(t.agent, AGENT_CLIENTS, slice.seconds);
    loaded[label] = (loaded[label] ?? 0) + slice.seconds;
    try {
      await slice.stack.queues.agent.waitUntilIdle(DRAIN_TIMEOUT_MS);
    } catch (err) {
      // A stack whose queue stops draining is a finding (a worker held back for good), not a
      // broken benchmark: it is reported, and the other stack's soak goes on.
      const minute = Math.ceil(loaded[label] / 60);
      stalled[label] = { minute, error: (err as Error).message };
      say(`soak: ${label} stopped draining in minute ${minute} of its soak: ${(err as Error).message}`);
      continue;
    }
    slice.stack.assertAlive();
    if (!afterFirstMinute && performance.now() - started >= 60_000 * Math.min(1, opts.soakMinutes) * stacks.length) {
      afterFirstMinute = firstMinute.stop();
      firstMinute = { stop: () => [] };
    }
  }
  return {
    minutes: opts.soakMinutes,
    afterFirstMinute: afterFirstMinute ?? firstMinute.stop(),
    whole: watch.stop(),
    stalled,
  };
}
