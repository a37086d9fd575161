import type { AgentUsage } from "../../shared/contracts/agent-spec";
import { config } from "../../shared/config";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { UsageCounter } from "./agent-context";
import { builtinToolFees } from "./builtin-tool-fees";

/**
 * The E5 `usage` object: provider token counts priced with the pricing table, plus image and MCP
 * charges, the flat fee of an enabled built-in tool, and the per-agent charge for every agent that made a call (handoff agents included).
 */
export function agentUsage(usage: UsageCounter, pricing = config.pricing): AgentUsage {
  const { inputCost, outputCost } = tokenCosts(usage.inputTokens, usage.outputTokens, pricing);
  const imgCost = usage.images.size * pricing.perImage;
  const mcpCost = usage.mcpCalls * pricing.perMcpCall;
  const tools = builtinToolFees(usage);
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    img_cost: roundCost(imgCost),
    mcp_cost: roundCost(mcpCost),
    ...tools.fields,
    total_cost: roundCost(
      inputCost + outputCost + imgCost + mcpCost + tools.total + Math.max(1, usage.agentCount) * pricing.perAgent,
    ),
  };
}
