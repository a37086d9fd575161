import type { AgentUsage } from "../../shared/contracts/agent-spec";
import { config } from "../../shared/config";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { UsageCounter } from "./agent-context";
import { runCharges } from "./run-charges";

/**
 * The agent completion's `usage` object: provider token counts priced with the pricing table, plus the run's
 * charges (`runCharges`: image and MCP charges, the flat fee of an enabled built-in tool, and the
 * per-agent charge for the run's own agent and every handoff agent that made a call).
 */
export function agentUsage(usage: UsageCounter, pricing = config.pricing): AgentUsage {
  const { inputCost, outputCost } = tokenCosts(usage.inputTokens, usage.outputTokens, pricing);
  const charges = runCharges(usage, pricing);
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    img_cost: roundCost(charges.imgCost),
    mcp_cost: roundCost(charges.mcpCost),
    ...charges.tools.fields,
    total_cost: roundCost(inputCost + outputCost + charges.total),
  };
}
