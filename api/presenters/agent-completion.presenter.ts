import type { AgentCompletionRequest, AgentRunOutput, AgentUsage } from "../../shared/contracts/agent-spec";
import type { Run } from "../../shared/db/entities/run.entity";

/** CONTRACT.md's E5 response, built from a succeeded run. */
export function presentAgentCompletion(run: Run) {
  const request = run.request as AgentCompletionRequest;
  const output = run.output as AgentRunOutput;
  return {
    job_id: run.job_id,
    success: true,
    name: request.agent_config.agent_name ?? null,
    description: request.agent_config.description ?? null,
    temperature: request.agent_config.temperature ?? null,
    outputs: output.outputs,
    usage: run.usage as AgentUsage,
    timestamp: (run.finished_at ?? new Date()).toISOString(),
  };
}
