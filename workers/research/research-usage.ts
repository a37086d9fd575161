import { config } from "../../shared/config";
import type { AdvancedResearchUsage } from "../../shared/contracts/advanced-research";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { UsageCounter } from "../agents/agent-context";

/**
 * An advanced research session's usage: tokens at the table's rates, the per-agent charge for the
 * director and every researcher that made a call, images, and `PRICE_PER_SEARCH` per search made
 * (a session's searches are its work, not one tool enabled for a request).
 */
export function researchUsage(
  usage: UsageCounter,
  pricing = config.pricing,
  searchFee = config.builtinTools.fees.auto_search,
): AdvancedResearchUsage {
  const { inputCost, outputCost } = tokenCosts(usage.inputTokens, usage.outputTokens, pricing);
  const agentCost = usage.agentCount * pricing.perAgent;
  const searchCost = usage.builtinCalls * searchFee;
  const imgCost = usage.images.size * pricing.perImage;
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    searches: usage.builtinCalls,
    search_cost: roundCost(searchCost),
    agent_cost: roundCost(agentCost),
    total_cost: roundCost(inputCost + outputCost + agentCost + searchCost + imgCost),
  };
}
