import type { SwarmUsage } from "../../contracts/swarm-request";
import type { SwarmRun } from "../../db/entities/run.entity";
import { presentWoundDown } from "./wound-down.presenter";

/** The usage object in the hosted API's field order (jsonb storage does not keep key order). */
export function orderedSwarmUsage(u: SwarmUsage | null): SwarmUsage | null {
  if (!u?.billing_info) return u;
  const b = u.billing_info.cost_breakdown ?? {};
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    total_tokens: u.total_tokens,
    billing_info: {
      cost_breakdown: {
        agent_cost: b.agent_cost,
        input_token_cost: b.input_token_cost,
        output_token_cost: b.output_token_cost,
        token_counts: {
          total_input_tokens: b.token_counts?.total_input_tokens,
          total_output_tokens: b.token_counts?.total_output_tokens,
          total_tokens: b.token_counts?.total_tokens,
        },
        num_agents: b.num_agents,
        service_tier: b.service_tier,
        night_time_discount_applied: b.night_time_discount_applied,
        img_cost: b.img_cost,
        mcp_cost: b.mcp_cost,
        // Only a run whose agents had a built-in tool reports its fee.
        ...(b.search_cost !== undefined ? { search_cost: b.search_cost } : {}),
        ...(b.scrape_cost !== undefined ? { scrape_cost: b.scrape_cost } : {}),
      },
      total_cost: u.billing_info.total_cost,
      discount_active: u.billing_info.discount_active,
    },
  };
}

/**
 * The hosted API's SwarmResponse (plus `service_tier`), built from a succeeded run; one its budget
 * wound down says `status: "incomplete"` and lists what finished (see `presentWoundDown`).
 */
export function presentSwarmCompletion(run: SwarmRun) {
  const { request, output: stored } = run;
  return {
    job_id: run.job_id,
    status: "success" as string,
    swarm_name: request.name ?? null,
    description: request.description ?? null,
    swarm_type: stored?.swarm_type,
    output: stored?.output,
    number_of_agents: stored?.number_of_agents,
    service_tier: run.service_tier,
    execution_time: run.execution_time,
    usage: orderedSwarmUsage(run.usage),
    ...presentWoundDown(stored?.incomplete),
    ...(stored?.truncated?.length ? { truncated: stored.truncated } : {}),
  };
}
