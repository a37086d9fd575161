import type { AgentSpec } from "../contracts/agent-spec";
import type { SwarmRequest } from "../contracts/swarm-request";
import { parseFlow } from "./flow";
import { hasRole, swarmAgentNames } from "./request-checks";
import { AVAILABLE_SWARM_TYPES, SWARM_CATALOG, runsOncePerTask, type SwarmTypeName } from "./swarm-catalog";
import { swarmRuleProblems } from "./swarm-rules";

/**
 * How many LLM calls each agent of a swarm makes, from its type's definition (docs/swarm-types.md)
 * and the request alone, before anything runs: what `POST /v1/swarm/estimate` prices. Where the
 * model's answers decide (a router's choice, a director's orders, a plan, tools), each count is a
 * range and the plan says why.
 */

/** A count known to lie between `min` and `max`; `max` null when nothing in the request bounds it. */
export interface Range {
  min: number;
  max: number | null;
}

/** One agent of a planned swarm: a request agent, or an internal one holding a job. */
export interface PlannedAgent {
  name: string;
  /** The job an internal agent (or the request agent holding it) does: `Director`, `Consensus`…; null for a worker. */
  job: string | null;
  /** The request agent, whose `max_loops`, tools and `max_tokens` shape each turn; null for an internal agent. */
  spec: AgentSpec | null;
  /** Its turns: each one call of an internal agent, or one agent turn (its `max_loops` calls, and tool rounds). */
  turns: Range;
  /** Its structured decisions: one call each, and one repair call when the first answer is invalid. */
  decisions: Range;
  /** Calls per turn fixed by the type rather than the agent (HeavySwarm's `heavy_swarm_loops_per_agent`). */
  loopsPerTurn?: number;
}

/** The plan of one swarm request. */
export interface CallPlan {
  agents: PlannedAgent[];
  /** How many times the swarm runs: once per `tasks` item when it has `tasks` and no `task`. */
  runs: number;
  /** Why counts are ranges, one sentence each; empty when the request fixes every count. */
  why: string[];
}

/** Most rounds of MCP tool calls in one loop of an agent, before it must answer (docs/swarm-types.md). */
const MCP_ROUNDS = 10;
/** Built-in agents some types run without request agents; the worker's teams are checked against these counts. */
export const BUILT_IN_TEAM_SIZES = { CouncilAsAJudge: 6, heavy: { default: 4, medium: 3, heavy: 15 } } as const;
/** Most tasks a PlannerWorkerSwarm planner may plan per cycle, and DeepResearchSwarm queries per round. */
const PLAN_LIMITS = { plannedTasks: 100, queriesPerRound: 6, firstRoundQueries: 3 } as const;

const exactly = (n: number): Range => ({ min: n, max: n });
const NONE = exactly(0);

/** The LLM calls of one turn of a request agent: its loops, plus the calls its tools or prompt generation add. */
function callsPerTurn(spec: AgentSpec | null, loopsPerTurn?: number): { calls: Range; why: string | null } {
  if (!spec) return { calls: exactly(loopsPerTurn ?? 1), why: null };
  const loops = loopsPerTurn ?? spec.max_loops ?? 1;
  const mcp = Boolean(spec.mcp_url || spec.mcp_config || spec.mcp_configs?.connections?.length);
  const functions = Boolean(spec.tools_list_dictionary?.length);
  const generated = spec.auto_generate_prompt ? 1 : 0;
  let max = loops * (mcp ? MCP_ROUNDS + 1 : 1) + (mcp && spec.tool_call_summary ? 1 : 0) + generated;
  let min = (functions ? 1 : loops) + generated;
  const why: string[] = [];
  if (mcp) why.push(`its MCP tools add up to ${MCP_ROUNDS} rounds of calls a loop, as the model asks for them`);
  if (functions) why.push("a call to one of its function tools ends its turn early");
  if (spec.handoffs?.length) {
    why.push("the agents it hands off to are not counted: the model decides whether it delegates");
    min = Math.min(min, loops);
    max = Math.max(max, loops);
  }
  return { calls: { min, max }, why: why.length ? `${spec.agent_name}: ${why.join("; ")}` : null };
}

/** The request agents that do the work (not holding `job`), and the one holding it, if any. */
function split(agents: AgentSpec[], job: string): { workers: AgentSpec[]; holder: AgentSpec | undefined } {
  const holder = agents.find((a) => hasRole(a, job.toLowerCase()));
  return { workers: agents.filter((a) => a !== holder), holder };
}

const worker = (spec: AgentSpec, turns: Range, decisions: Range = NONE): PlannedAgent => ({
  name: spec.agent_name ?? "",
  job: null,
  spec,
  turns,
  decisions,
});

const internal = (job: string, turns: Range, decisions: Range = NONE, holder?: AgentSpec): PlannedAgent => ({
  name: holder?.agent_name ?? job,
  job,
  spec: holder ?? null,
  turns,
  decisions,
});

const builtIn = (count: number, prefix: string, turns: Range, loopsPerTurn?: number): PlannedAgent[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix} ${i + 1}`,
    job: prefix,
    spec: null,
    turns,
    decisions: NONE,
    loopsPerTurn,
  }));

type TypePlan = (agents: AgentSpec[], request: SwarmRequest, why: string[]) => PlannedAgent[];

const everyAgentEachLoop: TypePlan = (agents, request) => agents.map((a) => worker(a, exactly(request.max_loops)));

/** Each concrete type's calls (N agents, L = `max_loops`), as docs/swarm-types.md defines the type. */
const TYPE_PLANS: Record<Exclude<SwarmTypeName, "auto" | "AutoSwarmBuilder">, TypePlan> = {
  SequentialWorkflow: everyAgentEachLoop,
  ConcurrentWorkflow: everyAgentEachLoop,
  GroupChat: everyAgentEachLoop,
  RoundRobin: everyAgentEachLoop,
  DebateWithJudge: everyAgentEachLoop,
  AgentRearrange(agents, request) {
    const flow = parseFlow(request.rearrange_flow ?? "", swarmAgentNames(request)).flat();
    return agents.map((a) => worker(a, exactly(flow.filter((n) => n === a.agent_name).length * request.max_loops)));
  },
  MixtureOfAgents: (agents, request) =>
    agents.map((a, i) => worker(a, exactly(i === agents.length - 1 ? 1 : request.max_loops))),
  MajorityVoting: (agents, request) => [
    ...everyAgentEachLoop(agents, request, []),
    internal("Consensus", NONE, exactly(request.max_loops)),
  ],
  CouncilAsAJudge: (agents) => [
    ...(agents.length
      ? agents.map((a) => worker(a, exactly(1)))
      : builtIn(BUILT_IN_TEAM_SIZES.CouncilAsAJudge, "Judge", exactly(1))),
    internal("Chair", exactly(1)),
  ],
  LLMCouncil(agents) {
    const { workers, holder } = split(agents, "chairman");
    return [...workers.map((a) => worker(a, exactly(1), exactly(1))), internal("Chairman", exactly(1), NONE, holder)];
  },
  MALT(agents, request) {
    const L = request.max_loops;
    const [generator, verifier, refiner] = agents;
    return [
      worker(generator, exactly(L)),
      worker(verifier, exactly(3 * L)),
      worker(refiner, exactly(3 * L)),
      internal("Consensus", NONE, exactly(L)),
    ];
  },
  HeavySwarm(agents, request) {
    const R = request.heavy_swarm_max_loops;
    const loops = request.heavy_swarm_loops_per_agent;
    const team = agents.length
      ? agents.map((a) => ({ ...worker(a, exactly(R)), loopsPerTurn: loops }))
      : builtIn(BUILT_IN_TEAM_SIZES.heavy[request.heavy_swarm_variant], "Worker", exactly(R), loops);
    return [internal("Question Generator", NONE, exactly(R)), ...team, internal("Synthesis", exactly(R))];
  },
  BatchedGridWorkflow: (agents, request) =>
    agents.map((a) => worker(a, exactly((request.tasks?.length ?? 1) * request.max_loops))),
  MultiAgentRouter(agents, _request, why) {
    why.push("MultiAgentRouter: the router chooses which agents answer (at least one)");
    return [internal("Router", NONE, exactly(1)), ...agents.map((a) => worker(a, { min: 0, max: 1 }))];
  },
  HierarchicalSwarm(agents, request, why) {
    const L = request.max_loops;
    const { workers, holder } = split(agents, "director");
    why.push("HierarchicalSwarm: the director orders the workers it needs, and may end the work before the last loop");
    return [
      internal("Director", exactly(1), { min: Math.min(L, 2), max: L }, holder),
      ...workers.map((a) => worker(a, { min: 0, max: L })),
    ];
  },
  PlannerWorkerSwarm(agents, request, why) {
    const L = request.max_loops;
    const { workers: rest, holder } = split(agents, "planner");
    const { workers, holder: judge } = split(rest, "judge");
    why.push(
      `PlannerWorkerSwarm: the planner plans up to ${PLAN_LIMITS.plannedTasks} tasks a cycle for the workers, and the judge may end the work before the last cycle`,
    );
    return [
      internal("Planner", NONE, { min: 1, max: L }, holder),
      ...workers.map((a) => worker(a, { min: 0, max: PLAN_LIMITS.plannedTasks * L })),
      internal("Judge", NONE, { min: 1, max: L }, judge),
    ];
  },
  DeepResearchSwarm(agents, request, why) {
    const L = request.max_loops;
    const most = PLAN_LIMITS.queriesPerRound * L;
    why.push(
      `DeepResearchSwarm: the Query Generator plans ${PLAN_LIMITS.firstRoundQueries}–${PLAN_LIMITS.queriesPerRound} queries, then up to ${PLAN_LIMITS.queriesPerRound} follow-ups a round, and may stop early`,
    );
    const researchers = agents.length
      ? agents.map((a) => worker(a, { min: agents.length === 1 ? PLAN_LIMITS.firstRoundQueries : 0, max: most }))
      : [internal("Researcher", { min: PLAN_LIMITS.firstRoundQueries, max: most })];
    return [internal("Query Generator", NONE, { min: 1, max: L }), ...researchers, internal("Synthesis", exactly(1))];
  },
  InteractiveGroupChat(agents, request, why) {
    const L = request.max_loops;
    const task = request.task ?? "";
    const addressed = agents.filter((a) => task.includes(`@${a.agent_name}`));
    const sure = addressed.length ? addressed : agents;
    if (sure.length < agents.length)
      why.push("InteractiveGroupChat: a reply that mentions an agent calls it to answer");
    return agents.map((a) => worker(a, { min: sure.includes(a) ? L : 0, max: L }));
  },
};

/** Merges plans of several possible types: an agent's least is 0 where a type runs it not at all. */
function merge(plans: PlannedAgent[][]): PlannedAgent[] {
  const byName = new Map<string, PlannedAgent>();
  for (const plan of plans) {
    for (const agent of plan) {
      const seen = byName.get(agent.name);
      if (!seen) {
        byName.set(agent.name, { ...agent });
        continue;
      }
      const wider = (a: Range, b: Range): Range => ({
        min: Math.min(a.min, b.min),
        max: a.max === null || b.max === null ? null : Math.max(a.max, b.max),
      });
      seen.turns = wider(seen.turns, agent.turns);
      seen.decisions = wider(seen.decisions, agent.decisions);
    }
  }
  for (const agent of byName.values()) {
    const everywhere = plans.every((plan) => plan.some((a) => a.name === agent.name));
    if (!everywhere) {
      agent.turns = { ...agent.turns, min: 0 };
      agent.decisions = { ...agent.decisions, min: 0 };
    }
  }
  return [...byName.values()];
}

/** The types `auto`'s selector may choose for this request: the concrete ones whose rules it meets. */
function autoChoices(request: SwarmRequest): SwarmTypeName[] {
  return AVAILABLE_SWARM_TYPES.filter(
    (type) => !SWARM_CATALOG[type].runsAnotherType && !swarmRuleProblems({ ...request, swarm_type: type }).length,
  );
}

/**
 * The calls of a normalised, valid swarm request (`swarm_type` one of the catalog's names), per
 * agent. `auto` spans every type its selector may choose; AutoSwarmBuilder's swarm is the model's
 * design, so only the Builder's call is bounded.
 */
export function planSwarmCalls(request: SwarmRequest): CallPlan {
  const agents = (request.agents ?? []) as AgentSpec[];
  const why: string[] = [];
  const type = request.swarm_type as SwarmTypeName;
  let planned: PlannedAgent[];
  if (type === "auto") {
    const choices = autoChoices(request);
    why.push(`auto: the selector chooses one of ${choices.join(", ")}; the range spans them`);
    planned = [
      internal("Selector", NONE, exactly(1)),
      ...merge(choices.map((choice) => TYPE_PLANS[choice as keyof typeof TYPE_PLANS](agents, request, why))),
    ];
  } else if (type === "AutoSwarmBuilder") {
    why.push(
      "AutoSwarmBuilder: the Builder designs the swarm that runs (2–8 agents of a type it picks), so its calls have no bound before it does",
    );
    planned = [internal("Builder", NONE, exactly(1)), internal("Designed swarm", { min: 2, max: null })];
  } else {
    planned = TYPE_PLANS[type](agents, request, why);
  }
  if (planned.some((agent) => agent.decisions.max)) {
    why.push("a structured decision takes one more call when its first answer is invalid (one repair)");
  }
  return { agents: planned, runs: runsOncePerTask(request) ? request.tasks!.length : 1, why: [...new Set(why)] };
}

/** An agent's calls in one run of the swarm: its turns' calls and its decisions' (each possibly repaired once). */
export function callsOf(agent: PlannedAgent): { calls: Range; why: string | null } {
  const turn = callsPerTurn(agent.spec, agent.loopsPerTurn);
  const turns = agent.turns.max === null || turn.calls.max === null ? null : agent.turns.max * turn.calls.max;
  const decisions = agent.decisions.max === null ? null : agent.decisions.max * 2;
  return {
    calls: {
      min: agent.turns.min * turn.calls.min + agent.decisions.min,
      max: turns === null || decisions === null ? null : turns + decisions,
    },
    why: turn.why,
  };
}
