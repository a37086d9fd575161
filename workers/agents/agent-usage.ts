import type { AgentUsage } from "../../shared/contracts/agent-spec";
import { config } from "../../shared/config";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { AgentResult } from "./agent-runner";

/**
 * The E5 `usage` object: provider token counts priced with the pricing table, plus image and MCP
 * charges and the per-agent charge.
 */
export function agentUsage(result: AgentResult, mcpCalls = 0, pricing = config.pricing): AgentUsage {
  const { inputCost, outputCost } = tokenCosts(result.inputTokens, result.outputTokens, pricing);
  const imgCost = result.images * pricing.perImage;
  const mcpCost = mcpCalls * pricing.perMcpCall;
  return {
    input_tokens: result.inputTokens,
    output_tokens: result.outputTokens,
    total_tokens: result.inputTokens + result.outputTokens,
    img_cost: roundCost(imgCost),
    mcp_cost: roundCost(mcpCost),
    total_cost: roundCost(inputCost + outputCost + imgCost + mcpCost + pricing.perAgent),
  };
}
