import { config } from "../../shared/config";
import { isNightTime, roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { SwarmUsage } from "../../shared/contracts/swarm-request";
import type { UsageCounter } from "../agents/agent-context";
import { runCharges } from "../agents/run-charges";

/**
 * Prices a swarm run: provider token counts at the table's rates (less the flex discount and, at
 * night in the configured time zone, the night discount, decided at finish time), plus the run's
 * charges (`runCharges`: the per-agent charge for every agent that made a call, image and MCP
 * charges, and the flat fee of a built-in tool the run's agents were given, DeepResearchSwarm's
 * search), undiscounted as an agent run's are. The discount is kept on the counter
 * (`UsageCounter.discount`) for the ledger to record.
 */
export function swarmUsage(
  usage: UsageCounter,
  serviceTier: string,
  finishedAt: Date,
  pricing = config.pricing,
): SwarmUsage {
  const night = isNightTime(finishedAt, pricing);
  const flex = serviceTier === "flex";
  const factor = (night ? 1 - pricing.nightDiscount : 1) * (flex ? 1 - pricing.flexDiscount : 1);
  const { inputCost, outputCost } = tokenCosts(usage.inputTokens, usage.outputTokens, pricing);
  const charges = runCharges(usage, pricing);
  const inputTokenCost = inputCost * factor;
  const outputTokenCost = outputCost * factor;
  usage.discount = inputCost + outputCost - inputTokenCost - outputTokenCost;
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    billing_info: {
      cost_breakdown: {
        agent_cost: roundCost(charges.agentCost),
        input_token_cost: roundCost(inputTokenCost),
        output_token_cost: roundCost(outputTokenCost),
        token_counts: {
          total_input_tokens: usage.inputTokens,
          total_output_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
        },
        num_agents: usage.agentCount,
        service_tier: serviceTier,
        night_time_discount_applied: night,
        img_cost: roundCost(charges.imgCost),
        mcp_cost: roundCost(charges.mcpCost),
        ...charges.tools.fields,
      },
      total_cost: roundCost(inputTokenCost + outputTokenCost + charges.total),
      discount_active: night || flex,
    },
  };
}
