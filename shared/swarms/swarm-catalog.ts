import type { SwarmRequest } from "../contracts/swarm-request";
import {
  needsCouncilMembers,
  needsFlow,
  needsTasks,
  needsWorkerBesides,
  type SwarmRequestCheck,
} from "./request-checks";

/** How many request agents a type runs with. */
export type AgentCountRule = { min: number } | { exactly: number; inOrder: readonly string[] };

/** A request field naming a model some of a type's internal agents call. */
type ModelField = Extract<keyof SwarmRequest, `${string}_model_name` | "chairman_model">;

/**
 * What one swarm type is, as the API's validation, `GET /v1/swarms/available`, `auto`,
 * AutoSwarmBuilder and the worker read it (docs/swarm-types.md describes what each type does).
 */
export interface SwarmTypeRecord {
  /** One line on how its agents work together: what `auto`'s Selector and the Builder choose by. */
  summary: string;
  /** Whether the service offers it; an unavailable type answers 400. */
  available: boolean;
  agents: AgentCountRule;
  /** Other spellings clients still send. */
  aliases?: readonly string[];
  /** Its type-specific request rules, checked (with the agent count) before any LLM call. */
  checks?: readonly SwarmRequestCheck[];
  /** It chooses or builds another type and runs that (`auto`, AutoSwarmBuilder): never a choice itself. */
  runsAnotherType?: boolean;
  /** It reads `tasks` itself (as its grid) instead of being run once per task. */
  ownsTasks?: boolean;
  /** Without request agents, its built-in agents run on the service's default model (`DEFAULT_MODEL`). */
  defaultModelWithoutAgents?: boolean;
  /** Request fields naming the models of its internal agents (checked servable before a run is stored). */
  modelFields?: readonly ModelField[];
}

/** Every swarm type of the spec, in the order clients are shown them. */
const RECORDS = {
  AgentRearrange: {
    summary: "agents in the order of a flow ('A -> B, C -> D': steps in order, agents of a step in parallel)",
    available: true,
    agents: { min: 1 },
    checks: [needsFlow],
  },
  MixtureOfAgents: {
    summary: "the first agents answer in parallel as experts, the last one aggregates their answers",
    available: true,
    agents: { min: 2 },
  },
  SequentialWorkflow: {
    summary: "agents in order, each building on the transcript so far",
    available: true,
    agents: { min: 1 },
  },
  ConcurrentWorkflow: {
    summary: "all agents answer the task independently in parallel",
    available: true,
    agents: { min: 1 },
  },
  GroupChat: {
    summary: "agents discuss in rounds, each seeing the whole discussion",
    available: true,
    agents: { min: 2 },
  },
  MultiAgentRouter: {
    summary: "a router picks the agents the task needs and gives each a sub-task; they work in parallel",
    available: true,
    agents: { min: 1 },
    checks: [needsWorkerBesides(["router"], "agent to route to")],
  },
  AutoSwarmBuilder: {
    summary: "a builder writes a swarm (its type and 2 to 8 agents with their prompts) for the task, then it runs",
    available: true,
    agents: { min: 0 },
    runsAnotherType: true,
    defaultModelWithoutAgents: true,
  },
  HierarchicalSwarm: {
    summary: "a director plans, gives workers orders, reviews their results and synthesises",
    available: true,
    agents: { min: 1 },
    aliases: ["HiearchicalSwarm"],
    checks: [needsWorkerBesides(["director"])],
    modelFields: ["director_model_name"],
  },
  auto: {
    summary: "a selector chooses the type that fits the task and the team, then it runs",
    available: true,
    agents: { min: 1 },
    runsAnotherType: true,
  },
  MajorityVoting: {
    summary: "all agents answer in parallel and a consensus agent tallies the answers",
    available: true,
    agents: { min: 2 },
  },
  CouncilAsAJudge: {
    summary: "agents judge the material in parallel along their own dimensions; a chair merges the reports",
    available: true,
    agents: { min: 0 },
    defaultModelWithoutAgents: true,
    modelFields: ["council_judge_model_name"],
  },
  HeavySwarm: {
    summary: "a question generator gives each worker a focused question; a synthesis agent writes the report",
    available: true,
    agents: { min: 0 },
    modelFields: ["heavy_swarm_question_agent_model_name", "heavy_swarm_worker_model_name"],
  },
  BatchedGridWorkflow: {
    summary: "every agent on every task of the request's task list",
    available: true,
    agents: { min: 1 },
    checks: [needsTasks],
    ownsTasks: true,
  },
  LLMCouncil: {
    summary: "members answer, rank each other's anonymised answers, and a chairman writes the final answer",
    available: true,
    agents: { min: 2 },
    checks: [needsCouncilMembers],
    modelFields: ["chairman_model"],
  },
  DebateWithJudge: {
    summary: "three agents: Pro argues for, Con against, a Judge evaluates and decides",
    available: true,
    agents: { exactly: 3, inOrder: ["Pro", "Con", "Judge"] },
  },
  RoundRobin: {
    summary: "agents speak in turn over rounds, each told who spoke before and who speaks next",
    available: true,
    agents: { min: 2 },
  },
  PlannerWorkerSwarm: {
    summary: "a planner splits the goal into tasks with dependencies, workers do them, a judge checks the goal",
    available: true,
    agents: { min: 1 },
    checks: [needsWorkerBesides(["planner", "judge"])],
  },
  MALT: {
    summary:
      "a generator answers, a verifier checks the answer in parallel samples, a refiner improves it per check, and the majority answer wins",
    available: true,
    agents: { exactly: 3, inOrder: ["Generator", "Verifier", "Refiner"] },
  },
  DeepResearchSwarm: {
    summary: "research queries are planned, researched in parallel by the researchers, and synthesised into a report",
    available: true,
    agents: { min: 0 },
    defaultModelWithoutAgents: true,
  },
  InteractiveGroupChat: {
    summary:
      "the agents the task @mentions answer in turn (all when none is), and each can @mention another to answer next",
    available: true,
    agents: { min: 1 },
  },
} satisfies Record<string, SwarmTypeRecord>;

/** A swarm type's name exactly as clients spell it. */
export type SwarmTypeName = keyof typeof RECORDS;

/** One record per swarm type. */
export const SWARM_CATALOG: Readonly<Record<SwarmTypeName, SwarmTypeRecord>> = RECORDS;

/** Every swarm type, in catalog order. */
export const SWARM_TYPES = Object.keys(RECORDS) as SwarmTypeName[];

/** The types the service offers (`GET /v1/swarms/available`), in catalog order. */
export const AVAILABLE_SWARM_TYPES: readonly SwarmTypeName[] = SWARM_TYPES.filter((type) => RECORDS[type].available);

/** Old spellings clients still send, each mapped to its type. */
export const SWARM_TYPE_ALIASES: Readonly<Record<string, SwarmTypeName>> = Object.fromEntries(
  SWARM_TYPES.flatMap((type) => (SWARM_CATALOG[type].aliases ?? []).map((alias) => [alias, type])),
);

/** Whether `name` is a swarm type of the catalog (spelled exactly). */
function isSwarmTypeName(name: string): name is SwarmTypeName {
  return Object.hasOwn(RECORDS, name);
}

/** The catalog record of a type name as a request spells it, or undefined for a name that is no type. */
export function swarmTypeRecord(name: string): SwarmTypeRecord | undefined {
  return isSwarmTypeName(name) ? SWARM_CATALOG[name] : undefined;
}

/**
 * Whether the request's `tasks` are run one swarm per task (docs/swarm-types.md, "Swarms"): `tasks` without a
 * `task`, unless the type reads `tasks` itself.
 */
export function runsOncePerTask(request: Pick<SwarmRequest, "task" | "tasks" | "swarm_type">): boolean {
  return !request.task?.trim() && Boolean(request.tasks?.length) && !swarmTypeRecord(request.swarm_type)?.ownsTasks;
}
