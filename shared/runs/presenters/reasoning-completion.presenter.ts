import type { ReasoningAgentRun } from "../../db/entities/run.entity";
import { orderedSwarmUsage } from "./swarm-completion.presenter";

/**
 * The hosted reasoning-agent response, built from a succeeded run: the hosted field names
 * (`outputs`, `agent_type`, `agent_name`) beside the swarm response's (`output`, `swarm_type`, `name`).
 */
export function presentReasoningCompletion(run: ReasoningAgentRun) {
  const { request, output: stored } = run;
  return {
    id: run.job_id,
    job_id: run.job_id,
    status: "success",
    success: true,
    name: request.agent_name,
    agent_name: request.agent_name,
    description: request.description ?? null,
    swarm_type: request.swarm_type,
    agent_type: request.requested_swarm_type,
    output: stored?.output,
    outputs: stored?.output,
    number_of_agents: stored?.number_of_agents ?? 0,
    execution_time: run.execution_time,
    usage: orderedSwarmUsage(run.usage),
    timestamp: (run.finished_at ? new Date(run.finished_at) : new Date()).toISOString(),
  };
}
