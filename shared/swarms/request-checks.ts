import type { AgentSpec } from "../contracts/agent-spec";
import type { SwarmRequest } from "../contracts/swarm-request";
import { parseFlow } from "./flow";

/** A request as a type-specific check reads it: the type it names and its agents' display names. */
export interface CheckedRequest {
  type: string;
  request: SwarmRequest;
  /** Every agent's display name, in request order (`Agent <n>` for a nameless one). */
  names: string[];
}

/** One type-specific rule of a request: what is wrong with it (a 400's `detail` part), or null. */
export type SwarmRequestCheck = (checked: CheckedRequest) => string | null;

/** The display names of a request's agents: a nameless agent is `Agent <n>`, as turns are attributed by name. */
export function swarmAgentNames(request: Pick<SwarmRequest, "agents">): string[] {
  return (request.agents ?? []).map((a, i) => a.agent_name?.trim() || `Agent ${i + 1}`);
}

/** Whether an agent's `role` names `job` (roles are read trimmed and case-insensitively). */
export function hasRole(agent: Pick<AgentSpec, "role">, job: string): boolean {
  return agent.role?.trim().toLowerCase() === job;
}

/** AgentRearrange: a `rearrange_flow` that parses and names only the swarm's agents. */
export const needsFlow: SwarmRequestCheck = ({ type, request, names }) => {
  if (!request.rearrange_flow?.trim())
    return `${type} needs a rearrange_flow, e.g. 'Researcher -> Writer, Critic -> Editor'`;
  try {
    parseFlow(request.rearrange_flow, names);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

/** BatchedGridWorkflow: `tasks`, the grid's rows. */
export const needsTasks: SwarmRequestCheck = ({ type, request }) =>
  request.tasks?.length ? null : `${type} needs tasks: the grid is every agent on every task`;

/**
 * Agents whose `role` takes one of `jobs` (a director, planner, judge, router) do no work: at least
 * one `worker` must be left. Without agents the agent count rule speaks instead.
 */
export function needsWorkerBesides(jobs: readonly string[], worker = "worker"): SwarmRequestCheck {
  return ({ type, request }) => {
    const agents = request.agents ?? [];
    if (!agents.length) return null;
    const taken = jobs.filter((job) => agents.some((agent) => hasRole(agent, job))).length;
    if (agents.length - taken >= 1) return null;
    const roles = jobs.map((job) => `'${job}'`).join(" or ");
    return `${type} needs at least one ${worker} besides the agent${taken === 1 ? "" : "s"} with role ${roles}`;
  };
}

/** LLMCouncil: an agent with role `chairman` writes the final answer instead of being one of the 2+ members. */
export const needsCouncilMembers: SwarmRequestCheck = ({ type, request }) => {
  const agents = request.agents ?? [];
  // Fewer than 2 agents: the agent count rule speaks instead.
  if (agents.length < 2) return null;
  const members = agents.length - (agents.some((agent) => hasRole(agent, "chairman")) ? 1 : 0);
  return members < 2 ? `${type} needs at least 2 members besides the chairman (got ${members})` : null;
};
