import type { AgentSpec } from "../../contracts/agent-spec";
import type { DesignedSwarm, ExecutionType } from "../../contracts/auto-swarm-builder";
import type { AgentGenerateRun, AutoSwarmBuilderRun } from "../../db/entities/run.entity";
import { orderedSwarmUsage } from "./swarm-completion.presenter";

/** The fields of the reference's AgentSpec (`swarms/structs/auto_swarm_builder.py`) that a generated agent sets. */
const AGENT_SPEC_FIELDS = [
  "agent_name",
  "description",
  "system_prompt",
  "model_name",
  "auto_generate_prompt",
  "max_tokens",
  "temperature",
  "role",
  "max_loops",
] as const;

/** `return-agents`: an agent as the reference's AgentSpec has it, a valid `agent_config` as it stands. */
function agentSpecOf(agent: AgentSpec): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const field of AGENT_SPEC_FIELDS) if (agent[field] != null) spec[field] = agent[field];
  return spec;
}

/**
 * `outputs` by execution type (docs/api.md "Auto swarm builder"): `return-agents` the agents in the
 * reference's AgentSpec fields; `return-swarm-router-config` a whole `POST /v1/swarm/completions`
 * body (the reference's SwarmRouterConfig: name, description, swarm_type, agents, flow, rules,
 * task, plus max_loops); `return-agents-objects` the agents as the service runs them (every field
 * filled in) with where each sits in the swarm, the nearest JSON has to the reference's Agent objects.
 */
function builderOutputs(
  type: ExecutionType,
  swarm: DesignedSwarm,
  request: { task: string; max_loops: number },
): Record<string, unknown> {
  switch (type) {
    case "return-agents":
      return { agents: swarm.agents.map(agentSpecOf) };
    case "return-swarm-router-config":
      return {
        name: swarm.name,
        description: swarm.description,
        swarm_type: swarm.swarm_type,
        agents: swarm.agents.map(agentSpecOf),
        ...(swarm.rearrange_flow ? { rearrange_flow: swarm.rearrange_flow } : {}),
        ...(swarm.rules ? { rules: swarm.rules } : {}),
        task: request.task,
        max_loops: request.max_loops,
      };
    case "return-agents-objects":
      return {
        agent_objects: swarm.agents.map((agent, position) => ({
          ...agent,
          metadata: { swarm_name: swarm.name, swarm_type: swarm.swarm_type, position, team_size: swarm.agents.length },
        })),
      };
  }
}

const finishedAt = (run: { finished_at: Date | null }) =>
  run.finished_at ? new Date(run.finished_at).toISOString() : null;

/** The SDK's AutoSwarmBuilderCreateCompletionResponse, from a succeeded run. */
export function presentAutoSwarmBuilder(run: AutoSwarmBuilderRun) {
  const { request } = run;
  return {
    success: true,
    job_id: run.job_id,
    outputs: run.output ? builderOutputs(request.execution_type, run.output.swarm, request) : null,
    type: request.execution_type,
    timestamp: finishedAt(run),
    usage: orderedSwarmUsage(run.usage),
  };
}

/** `POST /v1/agents/auto-generate`'s answer: the hosted docs' `{agent_config}`, with the run's id, usage and time. */
export function presentAgentGenerate(run: AgentGenerateRun) {
  return {
    success: true,
    job_id: run.job_id,
    agent_config: run.output ? agentSpecOf(run.output.agent_config) : null,
    timestamp: finishedAt(run),
    usage: orderedSwarmUsage(run.usage),
  };
}
