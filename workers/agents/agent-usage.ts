import type { AgentUsage } from "../../shared/contracts/agent-spec";
import { config } from "../../shared/config";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { UsageCounter } from "./agent-context";

/** The flat fees of the built-in tools a run enabled, by the usage field that reports each. */
function builtinToolCosts(usage: UsageCounter, fees = config.builtinTools.fees) {
  return {
    search: usage.builtinTools.has("auto_search") ? fees.auto_search : 0,
    scrape: usage.builtinTools.has("web_scraper") ? fees.web_scraper : 0,
  };
}

/**
 * The E5 `usage` object: provider token counts priced with the pricing table, plus image and MCP
 * charges, the flat fee of an enabled built-in tool, and the per-agent charge for every agent that made a call (handoff agents included).
 */
export function agentUsage(usage: UsageCounter, pricing = config.pricing): AgentUsage {
  const { inputCost, outputCost } = tokenCosts(usage.inputTokens, usage.outputTokens, pricing);
  const imgCost = usage.images.size * pricing.perImage;
  const mcpCost = usage.mcpCalls * pricing.perMcpCall;
  const tools = builtinToolCosts(usage);
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    img_cost: roundCost(imgCost),
    mcp_cost: roundCost(mcpCost),
    // Only a run that enabled a built-in tool reports its fee.
    ...(usage.builtinTools.has("auto_search") ? { search_cost: roundCost(tools.search) } : {}),
    ...(usage.builtinTools.has("web_scraper") ? { scrape_cost: roundCost(tools.scrape) } : {}),
    total_cost: roundCost(
      inputCost +
        outputCost +
        imgCost +
        mcpCost +
        tools.search +
        tools.scrape +
        Math.max(1, usage.agents.size) * pricing.perAgent,
    ),
  };
}
