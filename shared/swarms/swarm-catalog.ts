import type { SwarmRequest } from "../contracts/swarm-request";
import { parseFlow } from "./flow";
import { messageList } from "./opening";

/** Every swarm type of the spec, exactly as clients spell them. */
export const SWARM_TYPES = [
  "AgentRearrange",
  "MixtureOfAgents",
  "SequentialWorkflow",
  "ConcurrentWorkflow",
  "GroupChat",
  "MultiAgentRouter",
  "AutoSwarmBuilder",
  "HierarchicalSwarm",
  "auto",
  "MajorityVoting",
  "CouncilAsAJudge",
  "HeavySwarm",
  "BatchedGridWorkflow",
  "LLMCouncil",
  "DebateWithJudge",
  "RoundRobin",
  "PlannerWorkerSwarm",
] as const;
export type SwarmTypeName = (typeof SWARM_TYPES)[number];

/** Old spellings clients still send. */
export const SWARM_TYPE_ALIASES: Record<string, SwarmTypeName> = { HiearchicalSwarm: "HierarchicalSwarm" };

/** Types the service runs today; the rest answer 400 until they are built. */
export const AVAILABLE_SWARM_TYPES: ReadonlySet<SwarmTypeName> = new Set<SwarmTypeName>([
  "SequentialWorkflow",
  "AgentRearrange",
  "ConcurrentWorkflow",
  "MixtureOfAgents",
  "GroupChat",
  "RoundRobin",
  "MajorityVoting",
  "DebateWithJudge",
  "BatchedGridWorkflow",
  "HierarchicalSwarm",
  "PlannerWorkerSwarm",
  "CouncilAsAJudge",
  "HeavySwarm",
  "LLMCouncil",
  "MultiAgentRouter",
  "auto",
  "AutoSwarmBuilder",
]);

/** Fewest request agents each type can run with (types with built-in agents need none). */
const MIN_AGENTS: Partial<Record<SwarmTypeName, number>> = {
  SequentialWorkflow: 1,
  AgentRearrange: 1,
  ConcurrentWorkflow: 1,
  MixtureOfAgents: 2,
  GroupChat: 2,
  RoundRobin: 2,
  MajorityVoting: 2,
  DebateWithJudge: 3,
  BatchedGridWorkflow: 1,
  MultiAgentRouter: 1,
  HierarchicalSwarm: 1,
  LLMCouncil: 2,
  PlannerWorkerSwarm: 1,
  CouncilAsAJudge: 0,
  HeavySwarm: 0,
  auto: 1,
  AutoSwarmBuilder: 0,
};

/**
 * Types whose built-in agents run on the service's default model (`DEFAULT_MODEL`) when the request
 * has no agents. HeavySwarm's built-ins use its own model fields instead.
 */
export const DEFAULT_MODEL_WITHOUT_AGENTS: ReadonlySet<SwarmTypeName> = new Set<SwarmTypeName>([
  "CouncilAsAJudge",
  "AutoSwarmBuilder",
]);

function agentNames(request: SwarmRequest): string[] {
  return (request.agents ?? []).map((a, i) => a.agent_name?.trim() || `Agent ${i + 1}`);
}

/**
 * The rules that need the whole request (CONTRACT.md: 400 with a readable `detail`), checked
 * before any LLM call. Returns the problems found; empty when the request can run.
 */
export function swarmRuleProblems(request: SwarmRequest): string[] {
  const problems: string[] = [];
  const type = request.swarm_type as SwarmTypeName;
  const n = request.agents?.length ?? 0;
  // What the worker opens the run with (openingText): a blank task, or `messages` that hold no
  // message (`{}`, `{messages: []}`), give the agents nothing to work on.
  const hasInput =
    Boolean(request.task?.trim()) || Boolean(request.tasks?.length) || messageList(request.messages).length > 0;
  if (!hasInput) problems.push("Give the swarm something to do: one of task, tasks or messages is required");
  if (!AVAILABLE_SWARM_TYPES.has(type))
    problems.push(`swarm_type '${type}' is not available yet on this service (see GET /v1/swarms/available)`);
  if (type === "DebateWithJudge" && n !== 3) {
    problems.push(`DebateWithJudge needs exactly 3 agents, in order Pro, Con, Judge (got ${n})`);
  } else if ((MIN_AGENTS[type] ?? 0) > n) {
    problems.push(`${type} needs at least ${MIN_AGENTS[type]} agent${MIN_AGENTS[type] === 1 ? "" : "s"} (got ${n})`);
  }
  const names = agentNames(request);
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
  if (duplicates.length)
    problems.push(`Agent names must be unique within a swarm: ${[...new Set(duplicates)].join(", ")}`);
  if (type === "AgentRearrange") {
    if (!request.rearrange_flow?.trim())
      problems.push("AgentRearrange needs a rearrange_flow, e.g. 'Researcher -> Writer, Critic -> Editor'");
    else {
      try {
        parseFlow(request.rearrange_flow, names);
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
  }
  if ((type === "HierarchicalSwarm" || type === "PlannerWorkerSwarm") && n >= 1) {
    // Agents taking the director (planner, judge) job do no work: someone must be left to work.
    const jobs = type === "HierarchicalSwarm" ? ["director"] : ["planner", "judge"];
    const roles = (request.agents ?? []).map((a) => a.role?.trim().toLowerCase() ?? "");
    const taken = jobs.filter((job) => roles.includes(job)).length;
    if (n - taken < 1)
      problems.push(
        `${type} needs at least one worker besides the agent${taken === 1 ? "" : "s"} with role ${jobs.map((j) => `'${j}'`).join(" or ")}`,
      );
  }
  if (type === "LLMCouncil" && n >= 2) {
    // An agent with role `chairman` writes the final answer instead of being a member.
    const chairman = (request.agents ?? []).findIndex((a) => a.role?.trim().toLowerCase() === "chairman");
    const members = n - (chairman >= 0 ? 1 : 0);
    if (members < 2) problems.push(`LLMCouncil needs at least 2 members besides the chairman (got ${members})`);
  }
  if (type === "MultiAgentRouter" && n === 1 && request.agents![0].role?.trim().toLowerCase() === "router") {
    // The agent with role `router` routes instead of working: someone must be left to route to.
    problems.push("MultiAgentRouter needs at least one agent to route to besides the agent with role 'router'");
  }
  if (type === "BatchedGridWorkflow" && !request.tasks?.length)
    problems.push("BatchedGridWorkflow needs tasks: the grid is every agent on every task");
  return problems;
}

/** The display names of a request's agents (a nameless agent gets `Agent <n>`). */
export { agentNames };
