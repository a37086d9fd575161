import { config } from "../../shared/config";
import type { RunBudgetRequest } from "../../shared/contracts/agent-spec";

/**
 * The budget a run gets: what the request asks for, never above the caller's tier ceilings, which
 * also fill in whatever the request leaves out.
 */
export function effectiveBudget(requested: RunBudgetRequest | undefined, tier: string): Required<RunBudgetRequest> {
  const limits = config.runLimits;
  const maxTokens = limits.maxTokens[tier] ?? limits.maxTokens.free;
  const maxCost = limits.maxCost[tier] ?? limits.maxCost.free;
  return {
    max_tokens: Math.min(requested?.max_tokens ?? maxTokens, maxTokens),
    max_cost: Math.min(requested?.max_cost ?? maxCost, maxCost),
    timeout_seconds: Math.min(requested?.timeout_seconds ?? limits.maxSeconds, limits.maxSeconds),
  };
}
