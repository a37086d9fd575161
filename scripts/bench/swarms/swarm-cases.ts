import type { SwarmShape } from "../targets/swarm-body";

/**
 * The depth a case expects, or why it is not checked. `of` is the static formula; a case whose
 * depth follows from LLM decisions leaves it out and gives `depthFromResponse` instead.
 */
type DepthRule = { formula: string; of?: (s: SwarmShape) => number } | { skip: string };

/** One run's depth read from its response body, or why that run cannot be checked. */
export type ResponseDepth = { depth: number; note: string } | { uncheckable: string };

/** One swarm type's representative request and its expected depth. */
export interface SwarmCase {
  shape: SwarmShape;
  depth: DepthRule;
  /**
   * Per run, from the response body (after the run): for types whose depth an LLM decides. When
   * present it is used instead of `depth.of`; `shape` is the request's shape.
   */
  depthFromResponse?: (body: unknown, shape: SwarmShape) => ResponseDepth;
}

/** Every call of every case asks the simulator for this latency. */
export const SWARM_SIM_LATENCY_MS = 300;

const steps = (flow = "") => flow.split("->").length;

/**
 * One entry per swarm type of docs/swarm-types.md ("The 20 types"); a new type is one more entry. The
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
  AgentRearrange: {
    shape: { agents: 4, loops: 1, flow: "Ada -> Ben, Cy -> Dee" },
    depth: { formula: "steps·L", of: (s) => steps(s.flow) * s.loops },
  },
  ConcurrentWorkflow: { shape: { agents: 4, loops: 2 }, depth: { formula: "L", of: (s) => s.loops } },
  MixtureOfAgents: { shape: { agents: 4, loops: 2 }, depth: { formula: "L+1", of: (s) => s.loops + 1 } },
  GroupChat: { shape: { agents: 3, loops: 1 }, depth: { formula: "N·L", of: (s) => s.agents * s.loops } },
  // The router is a request agent (role router); the depth is 2 however many agents it picks.
  MultiAgentRouter: { shape: { agents: 4, loops: 1, roles: { 0: "router" } }, depth: { formula: "2", of: () => 2 } },
  // Depth per run from the Builder turn's `spec` (see depthFromResponse below).
  AutoSwarmBuilder: {
    shape: { agents: 3, loops: 1 },
    depth: { formula: "1+built's" },
    depthFromResponse: (body, s) => autoSwarmBuilderDepth(body, s),
  },
  // L = 1: for L > 1 the director may declare the work done early, making the depth its choice.
  HierarchicalSwarm: {
    shape: { agents: 4, loops: 1, roles: { 0: "director" } },
    depth: { formula: "2·L+1", of: (s) => 2 * s.loops + 1 },
  },
  // Depth per run from the response's `swarm_type` (the chosen type).
  auto: {
    shape: { agents: 3, loops: 1 },
    depth: { formula: "1+chosen's" },
    depthFromResponse: (body, s) => autoDepth(body, s),
  },
  MajorityVoting: { shape: { agents: 3, loops: 2 }, depth: { formula: "2·L", of: (s) => 2 * s.loops } },
  CouncilAsAJudge: { shape: { agents: 3, loops: 1 }, depth: { formula: "2", of: () => 2 } },
  HeavySwarm: {
    shape: { agents: 3, loops: 1, heavyLoops: 1 },
    depth: { formula: "2+loops", of: (s) => 2 + (s.heavyLoops ?? 1) },
  },
  BatchedGridWorkflow: { shape: { agents: 2, loops: 2, tasks: 3 }, depth: { formula: "L", of: (s) => s.loops } },
  // Three members and a chairman (role chairman).
  LLMCouncil: { shape: { agents: 4, loops: 1, roles: { 3: "chairman" } }, depth: { formula: "3", of: () => 3 } },
  // Exactly 3 agents (Pro, Con, Judge), or the service answers 400.
  DebateWithJudge: { shape: { agents: 3, loops: 2 }, depth: { formula: "3·L", of: (s) => 3 * s.loops } },
  RoundRobin: { shape: { agents: 3, loops: 2 }, depth: { formula: "N·L", of: (s) => s.agents * s.loops } },
  // Depth per run from the Planner turns' plans (see depthFromResponse below).
  PlannerWorkerSwarm: {
    shape: { agents: 3, loops: 1 },
    depth: { formula: "Σ(2+chain)" },
    depthFromResponse: (body) => plannerWorkerDepth(body),
  },
  MALT: { shape: { agents: 3, loops: 2 }, depth: { formula: "4·L", of: (s) => 4 * s.loops } },
  // L = 1: for L > 1 the Query Generator may end the research early by planning no queries.
  DeepResearchSwarm: { shape: { agents: 3, loops: 1 }, depth: { formula: "2·L+1", of: (s) => 2 * s.loops + 1 } },
  // The task mentions nobody, so every agent speaks once per round whatever the replies mention.
  InteractiveGroupChat: { shape: { agents: 3, loops: 2 }, depth: { formula: "N·L", of: (s) => s.agents * s.loops } },
};

type Turn = Record<string, unknown> & { role?: unknown; content?: unknown };

function turnsOf(body: unknown): Turn[] {
  const output = (body as { output?: unknown })?.output;
  return Array.isArray(output) ? output.filter((t): t is Turn => typeof t === "object" && t !== null) : [];
}

/** The static depth of `type` for `shape`, or why it has none (its depth is an LLM's decision). */
function staticDepth(type: string, shape: SwarmShape): ResponseDepth {
  const rule = SWARM_CASES[type]?.depth;
  if (!rule) return { uncheckable: `${type} has no entry in swarm-cases.ts` };
  if ("skip" in rule || !rule.of || SWARM_CASES[type].depthFromResponse)
    return { uncheckable: `${type}'s depth is itself LLM-decided` };
  // HierarchicalSwarm's director may end early for L > 1 (see the entry's comment).
  if (type === "HierarchicalSwarm" && shape.loops > 1)
    return { uncheckable: "HierarchicalSwarm with L > 1: the director may end early" };
  return { depth: rule.of(shape), note: `${type} ${rule.formula}` };
}

/** auto: 1 (the Selector) + the chosen type's depth for the same request shape. */
function autoDepth(body: unknown, shape: SwarmShape): ResponseDepth {
  const chosen = (body as { swarm_type?: unknown })?.swarm_type;
  if (typeof chosen !== "string" || chosen === "auto")
    return { uncheckable: `response swarm_type ${JSON.stringify(chosen)} is not a chosen type` };
  const inner = staticDepth(chosen, shape);
  return "depth" in inner ? { depth: 1 + inner.depth, note: `1 + ${inner.note}` } : inner;
}

/** AutoSwarmBuilder: 1 (the Builder) + the depth of the swarm its `spec` describes. */
function autoSwarmBuilderDepth(body: unknown, shape: SwarmShape): ResponseDepth {
  const builder = turnsOf(body)[0];
  const spec =
    builder?.role === "Builder"
      ? (builder.spec as { swarm_type?: unknown; agents?: unknown; rearrange_flow?: unknown } | undefined)
      : undefined;
  if (!spec || typeof spec.swarm_type !== "string")
    return { uncheckable: "no Builder turn with a spec as the first output turn" };
  const agents = Array.isArray(spec.agents)
    ? spec.agents.length
    : typeof spec.agents === "object" && spec.agents
      ? Object.keys(spec.agents).length
      : 0;
  const flow = typeof spec.rearrange_flow === "string" && spec.rearrange_flow ? spec.rearrange_flow : undefined;
  const built: SwarmShape = { agents, loops: shape.loops, ...(flow ? { flow } : {}) };
  const inner = staticDepth(spec.swarm_type, built);
  const what = `N=${agents}${flow ? ` flow=${flow.replace(/\s+/g, "")}` : ""}`;
  return "depth" in inner
    ? { depth: 1 + inner.depth, note: `1 + ${inner.note} (${what})` }
    : { uncheckable: `built ${spec.swarm_type}: ${inner.uncheckable}` };
}

/** One plan line as `renderPlan` writes it: `- [id] Agent, priority p, after a, c1:b: task`. */
const PLAN_LINE = /^- \[([^\]]+)\] [^,]+, priority \d+(?:, after (.*?))?: /;

/**
 * PlannerWorkerSwarm: per cycle (one per `Planner` turn) 2 + the longest dependency chain of that
 * cycle's plan. The Planner turn carries only text (no structured plan), so the dependencies are
 * parsed from its lines (`after …`); references to earlier cycles (`c1:x`) are finished and add
 * nothing. When a plan cannot be parsed, the cycle's task turns count as an upper bound.
 */
function plannerWorkerDepth(body: unknown): ResponseDepth {
  const turns = turnsOf(body);
  const cycles: { planner: Turn; taskTurns: number }[] = [];
  for (const t of turns) {
    if (t.role === "Planner") cycles.push({ planner: t, taskTurns: 0 });
    else if (t.task_id !== undefined && cycles.length) cycles[cycles.length - 1].taskTurns++;
  }
  if (!cycles.length) return { uncheckable: "no Planner turn in the output" };
  let depth = 0;
  const parts: string[] = [];
  let bounded = false;
  for (const c of cycles) {
    const lines = String(c.planner.content ?? "")
      .split("\n")
      .filter((l) => l.startsWith("- ["));
    const deps = new Map<string, string[]>();
    for (const line of lines) {
      const m = PLAN_LINE.exec(line);
      if (!m) break;
      deps.set(
        m[1],
        (m[2] ?? "")
          .split(", ")
          .map((d) => d.trim())
          .filter(Boolean),
      );
    }
    let chain: number;
    if (lines.length && deps.size === lines.length && deps.size === c.taskTurns) {
      const memo = new Map<string, number>();
      const level = (id: string, seen: Set<string>): number => {
        if (memo.has(id)) return memo.get(id)!;
        if (seen.has(id)) return Infinity;
        seen.add(id);
        const own = deps.get(id)!.filter((d) => deps.has(d));
        const v = 1 + Math.max(0, ...own.map((d) => level(d, seen)));
        memo.set(id, v);
        return v;
      };
      chain = Math.max(...[...deps.keys()].map((id) => level(id, new Set())));
      parts.push(`2+${chain}`);
    } else {
      chain = c.taskTurns;
      bounded = true;
      parts.push(`2+≤${chain}`);
    }
    depth += 2 + chain;
  }
  return {
    depth,
    note: `${parts.join(" + ")}${bounded ? " (upper bound: a plan was not parseable, task turns used)" : ""}`,
  };
}
