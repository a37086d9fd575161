import { config } from "../../shared/config";
import type { AdvancedResearchUsage } from "../../shared/contracts/advanced-research";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import type { UsageCounter } from "../agents/agent-context";
import { runCharges } from "../agents/run-charges";

/**
 * An advanced research session's usage: tokens at the table's rates plus the run's charges
 * (`runCharges`): the per-agent charge for the director and every researcher that made a call,
 * images, and `PRICE_PER_SEARCH` per search the provider answered (a session's searches are its
 * work, not one tool enabled for a request; a failed search is not billed).
 */
export function researchUsage(
  usage: UsageCounter,
  pricing = config.pricing,
  fees = config.builtinTools.fees,
): AdvancedResearchUsage {
  const { inputCost, outputCost } = tokenCosts(usage.inputTokens, usage.outputTokens, pricing);
  const charges = runCharges(usage, pricing, fees);
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    searches: usage.billedSearches,
    search_cost: roundCost(charges.searchCost),
    agent_cost: roundCost(charges.agentCost),
    total_cost: roundCost(inputCost + outputCost + charges.total),
  };
}
