import { agentTemperature } from "../../contracts/agent-defaults";
import type { AgentUsage } from "../../contracts/agent-spec";
import type { AgentRun } from "../../db/entities/run.entity";
import { presentWoundDown } from "./wound-down.presenter";

/** The usage object in the hosted API's field order (jsonb storage does not keep key order). */
function orderedUsage(u: AgentUsage | null): AgentUsage | null {
  if (!u) return null;
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    total_tokens: u.total_tokens,
    img_cost: u.img_cost,
    mcp_cost: u.mcp_cost,
    ...(u.search_cost !== undefined ? { search_cost: u.search_cost } : {}),
    ...(u.scrape_cost !== undefined ? { scrape_cost: u.scrape_cost } : {}),
    total_cost: u.total_cost,
  };
}

/**
 * The agent completion response, built from a succeeded run; one its budget wound down answers
 * `success: false` and `status: "incomplete"` with what finished (see `presentWoundDown`).
 */
export function presentAgentCompletion(run: AgentRun) {
  const { request, output } = run;
  return {
    job_id: run.job_id,
    success: !output?.incomplete,
    name: request.agent_config.agent_name ?? null,
    description: request.agent_config.description ?? null,
    temperature: agentTemperature(request.agent_config),
    outputs: output?.outputs ?? [],
    usage: orderedUsage(run.usage),
    timestamp: (run.finished_at ?? new Date()).toISOString(),
    ...presentWoundDown(output?.incomplete),
    ...(output?.truncated?.length ? { truncated: output.truncated } : {}),
  };
}
