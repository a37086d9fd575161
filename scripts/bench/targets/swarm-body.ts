import { AGENT_NAMES, SWARM_SIM_LATENCY_MS, type SwarmShape } from "../swarms/swarm-cases";

/**
 * The E1 body for `type` with `shape`: every agent asks the simulator to wait `latencyMs` per call
 * (through `llm_args`; none at 0), so a run's time is its depth in calls.
 * `tag` makes each run's task distinct, so nothing downstream can answer from a cache.
 */
export function swarmBody(
  type: string,
  shape: SwarmShape,
  tag: string,
  latencyMs = SWARM_SIM_LATENCY_MS,
): Record<string, unknown> {
  if (shape.agents > AGENT_NAMES.length)
    throw new Error(`${type}: at most ${AGENT_NAMES.length} agents have names in swarm-cases.ts`);
  const agents = AGENT_NAMES.slice(0, shape.agents).map((agent_name, i) => ({
    agent_name,
    description: `Bench agent ${agent_name}`,
    system_prompt: "You are concise.",
    ...(shape.roles?.[i] ? { role: shape.roles[i] } : {}),
    ...(latencyMs > 0 ? { llm_args: { sim_latency_ms: latencyMs } } : {}),
  }));
  const task = `Name one use of honey (${tag}).`;
  return {
    name: `bench ${type}`,
    swarm_type: type,
    max_loops: shape.loops,
    agents,
    // BatchedGridWorkflow's grid is `tasks`; a `task` next to them would change what runs.
    ...(shape.tasks ? { tasks: Array.from({ length: shape.tasks }, (_, i) => `${task} Part ${i + 1}.`) } : { task }),
    ...(shape.flow ? { rearrange_flow: shape.flow } : {}),
    ...(shape.heavyLoops ? { heavy_swarm_loops_per_agent: shape.heavyLoops } : {}),
  };
}
