import type { AgentSpec } from "../contracts/agent-spec";
import { agentName, everyAgent, mapAgentTree } from "../contracts/agent-tree";
import type { Run, RunRetry } from "../db/entities/run.entity";

/*
 * A client's retry may give another model to the agents whose last turn failed. The override is
 * kept in the run's `retries` (the request stays as its client sent it); each attempt's worker
 * applies every override made so far, oldest first, to the request it runs.
 */

type OverridableRequest = { agent_config?: AgentSpec; agents?: AgentSpec[] | null };

/** The request's agents (handoffs included) of a run an override can apply to, or null for another kind. */
export function overridableAgents(run: Pick<Run, "kind" | "request">): AgentSpec[] | null {
  const request = run.request as OverridableRequest;
  if (run.kind === "agent") return everyAgent(request.agent_config ? [request.agent_config] : []).map((a) => a.spec);
  if (run.kind === "swarm") return everyAgent(request.agents ?? []).map((a) => a.spec);
  return null;
}

/**
 * The request's agents (by name) whose last turn failed in the attempt that ended: the agents the
 * failed run lists as failed, else the agent its error names.
 */
export function failedAgentNames(run: Pick<Run, "kind" | "request" | "agents" | "error">): string[] {
  const named = new Set((overridableAgents(run) ?? []).map(agentName));
  const failed = (run.agents ?? []).filter((a) => a.status === "failed").map((a) => a.agent);
  const blamed = typeof run.error?.agent === "string" ? [run.error.agent] : [];
  return [...new Set([...failed, ...blamed])].filter((name) => named.has(name));
}

/** The agent with each override's model given to it, and to its handoffs, when the override names them. */
function withModels(spec: AgentSpec, retries: RunRetry[]): AgentSpec {
  return mapAgentTree(spec, (agent) => {
    let model = agent.model_name;
    for (const { model: override } of retries)
      if (override?.agents.includes(agentName(agent))) model = override.model_name;
    return model === agent.model_name ? agent : { ...agent, model_name: model };
  });
}

/** The run as its next attempt runs it: every model override its retries made, applied to its request. */
export function withRetryModels<R extends Run>(run: R): R {
  if (!run.retries.some((entry) => entry.model)) return run;
  const request = run.request as OverridableRequest;
  if (run.kind === "agent" && request.agent_config)
    return { ...run, request: { ...request, agent_config: withModels(request.agent_config, run.retries) } };
  if (run.kind === "swarm" && request.agents)
    return { ...run, request: { ...request, agents: request.agents.map((a) => withModels(a, run.retries)) } };
  return run;
}
