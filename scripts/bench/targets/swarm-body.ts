/** What a swarm completion request sends: the knobs the depth formulas of `swarms/swarm-cases.ts` read. */
export interface SwarmShape {
  /** Request agents (N), named from `AGENT_NAMES` in order; every one waits the same simulated latency. */
  agents: number;
  /** Swarm `max_loops` (L). */
  loops: number;
  /** AgentRearrange's `rearrange_flow`, over `AGENT_NAMES`. */
  flow?: string;
  /** BatchedGridWorkflow's `tasks` count (T). */
  tasks?: number;
  /** HeavySwarm's `heavy_swarm_loops_per_agent`. */
  heavyLoops?: number;
  /**
   * `role` per agent index, where docs/swarm-types.md lets a request agent act as an internal one
   * (director, router, chairman): that agent carries `sim_latency_ms`, so the internal call waits
   * like every other call instead of depending on what the service passes to internal agents.
   */
  roles?: Record<number, string>;
}

/** Agent names, short and distinct, so flows read well. */
export const AGENT_NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"];

/**
 * The swarm completion body for `type` with `shape`: every agent asks the simulator to wait `latencyMs` per call
 * (through `llm_args`; none at 0), so a run's time is its depth in calls.
 * `tag` makes each run's task distinct, so nothing downstream can answer from a cache.
 */
export function swarmBody(type: string, shape: SwarmShape, tag: string, latencyMs: number): Record<string, unknown> {
  if (shape.agents > AGENT_NAMES.length)
    throw new Error(`${type}: at most ${AGENT_NAMES.length} agents have names in AGENT_NAMES`);
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
