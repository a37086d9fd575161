import { agentName } from "../../shared/contracts/agent-tree";
import type { GraphPlan } from "../../shared/swarms/graph-plan";
import type { SwarmRun } from "./swarm-run";
import { answersByAgent } from "./turn-inputs";

/** A node's result, settled once its turn ends; dependants wait on it. */
interface Pending {
  promise: Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

function pending(): Pending {
  const p = {} as Pending;
  p.promise = new Promise((resolve, reject) => Object.assign(p, { resolve, reject }));
  // A failed node fails the run through its own turn; its dependants' waits need no handler of their own.
  p.promise.catch(() => undefined);
  return p;
}

/** Each node's depth (the longest chain of sources before it), so nodes are taken in the order they can start. */
function startOrder(plan: GraphPlan): string[] {
  const depth = new Map<string, number>();
  const depthOf = (node: string): number => {
    if (!depth.has(node)) depth.set(node, Math.max(-1, ...plan.sources.get(node)!.map(depthOf)) + 1);
    return depth.get(node)!;
  };
  return [...plan.nodes].sort((a, b) => depthOf(a) - depthOf(b) || plan.nodes.indexOf(a) - plan.nodes.indexOf(b));
}

/** What a node reads (see docs/workflows.md): the task, then its sources' outputs or the last loop's end points. */
function nodeInput(task: string, from: string[], outputs: unknown[], loop: number, loops: number, entry: boolean) {
  if (!entry)
    return [
      task,
      "Outputs of the agents before you in the workflow:",
      ...answersByAgent(from, outputs),
      "Build on their work toward the task: keep what holds, correct what does not, and add what is missing.",
    ].join("\n\n");
  if (loop === 0) return task;
  return [
    task,
    `Results of the workflow's previous run (its end points), run ${loop + 1} of ${loops} now:`,
    ...answersByAgent(from, outputs),
    "Improve on these results: correct what is wrong, fill what is missing, strengthen the analysis.",
  ].join("\n\n");
}

/**
 * GraphWorkflow: agents are nodes; a node runs once all its sources have finished and reads their
 * outputs, attributed; nodes whose sources are done run in parallel, so the wall time is the
 * graph's critical path. With `max_loops` > 1 the whole graph runs again, its entry points reading
 * the previous run's end-point outputs. Returns every node's output by name (and by `<name>_loop_<n>`
 * when there are several loops). Calls: nodes × loops; depth: longest chain × loops.
 */
export async function runGraph(swarm: SwarmRun, plan: GraphPlan, task: string): Promise<Record<string, unknown>> {
  const byName = new Map(swarm.agents.map((agent, i) => [agentName(agent), { agent, index: i }]));
  const order = startOrder(plan);
  const entries = new Set(plan.entryPoints);
  // A Map, not an object: node names are the client's, and `__proto__` must stay a key like any other.
  const outputs = new Map<string, unknown>();
  let lastEnds: { names: string[]; outputs: unknown[] } = { names: [], outputs: [] };
  let last = new Map<string, unknown>();
  for (let loop = 0; loop < swarm.loops; loop++) {
    const results = new Map(plan.nodes.map((node) => [node, pending()]));
    // Nodes are taken in start order, so every source was taken before the nodes that wait on it.
    const answers = await swarm.parallel(order, async (node) => {
      try {
        const from = entries.has(node) ? lastEnds.names : plan.sources.get(node)!;
        const read = entries.has(node) ? lastEnds.outputs : await Promise.all(from.map((s) => results.get(s)!.promise));
        const { agent, index } = byName.get(node)!;
        const place = entries.has(node)
          ? "where the task enters the workflow"
          : `after ${from.join(", ")}, whose outputs you receive`;
        const answer = await swarm.turn(agent, nodeInput(task, from, read, loop, swarm.loops, entries.has(node)), {
          lane: `l${loop}/n${index}`,
          place,
        });
        results.get(node)!.resolve(answer);
        return answer;
      } catch (err) {
        results.get(node)!.reject(err);
        throw err;
      }
    });
    last = new Map(order.map((node, i) => [node, answers[i]]));
    for (const node of plan.nodes) {
      swarm.conversation.add({ role: node, content: last.get(node) });
      if (swarm.loops > 1) outputs.set(`${node}_loop_${loop + 1}`, last.get(node));
    }
    lastEnds = { names: plan.endPoints, outputs: plan.endPoints.map((node) => last.get(node)) };
  }
  for (const node of plan.nodes) outputs.set(node, last.get(node));
  // `fromEntries` defines own keys, so even `__proto__` lands in the answer.
  return Object.fromEntries(outputs);
}
