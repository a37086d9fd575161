import { config } from "../../shared/config";
import { roundCost } from "../../shared/llm/pricing";
import type { UsageCounter } from "./agent-context";

/** The usage fields that report the flat fee of each built-in tool a run enabled. */
interface BuiltinToolCostFields {
  search_cost?: number;
  scrape_cost?: number;
}

/**
 * The flat fees of the built-in tools a run enabled, once per run however often they were called:
 * their sum, and the fields that report them (only a run that enabled a tool reports its fee). Part
 * of `runCharges`, which agent and swarm usage and the run's budget all count from, so a search costs
 * the same whichever kind of run made it.
 */
export function builtinToolFees(
  usage: UsageCounter,
  fees = config.builtinTools.fees,
): { total: number; fields: BuiltinToolCostFields } {
  const search = usage.builtinTools.has("auto_search");
  const scrape = usage.builtinTools.has("web_scraper");
  return {
    total: (search ? fees.auto_search : 0) + (scrape ? fees.web_scraper : 0),
    fields: {
      ...(search ? { search_cost: roundCost(fees.auto_search) } : {}),
      ...(scrape ? { scrape_cost: roundCost(fees.web_scraper) } : {}),
    },
  };
}
