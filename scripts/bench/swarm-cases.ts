/** What a case sends: the knobs the depth formulas read. */
export interface SwarmShape {
  /** Request agents (N), named from `AGENT_NAMES` in order; every one waits `SWARM_SIM_LATENCY_MS`. */
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
   * `role` per agent index, where SWARM-TYPES.md lets a request agent act as an internal one
   * (director, router, chairman): that agent carries `sim_latency_ms`, so the internal call waits
   * like every other call instead of depending on what the service passes to internal agents.
   */
  roles?: Record<number, string>;
}

/** The depth a case expects, or why it is not checked. */
export type DepthRule = { formula: string; of: (s: SwarmShape) => number } | { skip: string };

/** One swarm type's representative request and its expected depth. */
export interface SwarmCase {
  shape: SwarmShape;
  depth: DepthRule;
}

/** Every call of every case asks the simulator for this latency. */
export const SWARM_SIM_LATENCY_MS = 300;

/** Agent names, short and distinct, so flows read well. */
export const AGENT_NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"];

const steps = (flow = "") => flow.split("->").length;

/**
 * One entry per swarm type of SWARM-TYPES.md ("The 17 types"); a new type is one more entry. The
 * `formula` strings are that page's depth column verbatim (N agents, L = max_loops), and `of`
 * computes it for the entry's shape: the longest chain of LLM calls that must wait for each other,
 * so a swarm that really runs its parallel work in parallel takes about depth × one call's latency.
 *
 * Shapes are chosen so the depth is fixed by the request: L = 1 where a loop may end early on an
 * LLM's say-so (HierarchicalSwarm), L = 2 elsewhere where it is cheap, to check loops add depth
 * and not more. Types whose depth follows from what an LLM decides (which swarm to build, which
 * type to pick, how long a dependency chain to plan) are skipped with the reason.
 */
export const SWARM_CASES: Record<string, SwarmCase> = {
  SequentialWorkflow: { shape: { agents: 3, loops: 2 }, depth: { formula: "N·L", of: (s) => s.agents * s.loops } },
  // At least one parallel step, so the check sees that a step costs one call, not one per agent.
  AgentRearrange: { shape: { agents: 4, loops: 1, flow: "Ada -> Ben, Cy -> Dee" }, depth: { formula: "steps·L", of: (s) => steps(s.flow) * s.loops } },
  ConcurrentWorkflow: { shape: { agents: 4, loops: 2 }, depth: { formula: "L", of: (s) => s.loops } },
  MixtureOfAgents: { shape: { agents: 4, loops: 2 }, depth: { formula: "L+1", of: (s) => s.loops + 1 } },
  GroupChat: { shape: { agents: 3, loops: 1 }, depth: { formula: "N·L", of: (s) => s.agents * s.loops } },
  // The router is a request agent (role router); the depth is 2 however many agents it picks.
  MultiAgentRouter: { shape: { agents: 4, loops: 1, roles: { 0: "router" } }, depth: { formula: "2", of: () => 2 } },
  AutoSwarmBuilder: { shape: { agents: 3, loops: 1 }, depth: { skip: "1 + the depth of the swarm the builder LLM designs" } },
  // L = 1: for L > 1 the director may declare the work done early, making the depth its choice.
  HierarchicalSwarm: { shape: { agents: 4, loops: 1, roles: { 0: "director" } }, depth: { formula: "2·L+1", of: (s) => 2 * s.loops + 1 } },
  auto: { shape: { agents: 3, loops: 1 }, depth: { skip: "1 + the depth of the type the selector LLM picks" } },
  MajorityVoting: { shape: { agents: 3, loops: 2 }, depth: { formula: "2·L", of: (s) => 2 * s.loops } },
  CouncilAsAJudge: { shape: { agents: 3, loops: 1 }, depth: { formula: "2", of: () => 2 } },
  HeavySwarm: { shape: { agents: 3, loops: 1, heavyLoops: 1 }, depth: { formula: "2+loops", of: (s) => 2 + (s.heavyLoops ?? 1) } },
  BatchedGridWorkflow: { shape: { agents: 2, loops: 2, tasks: 3 }, depth: { formula: "L", of: (s) => s.loops } },
  // Three members and a chairman (role chairman).
  LLMCouncil: { shape: { agents: 4, loops: 1, roles: { 3: "chairman" } }, depth: { formula: "3", of: () => 3 } },
  // Exactly 3 agents (Pro, Con, Judge), or the service answers 400.
  DebateWithJudge: { shape: { agents: 3, loops: 2 }, depth: { formula: "3·L", of: (s) => 3 * s.loops } },
  RoundRobin: { shape: { agents: 3, loops: 2 }, depth: { formula: "N·L", of: (s) => s.agents * s.loops } },
  PlannerWorkerSwarm: { shape: { agents: 3, loops: 1 }, depth: { skip: "per cycle 2 + the longest dependency chain the planner LLM writes" } },
};
