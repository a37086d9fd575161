import type { RunBudgetRequest } from "../../shared/contracts/agent-spec";
import type { BudgetLimits } from "./run-budget";

/**
 * A run's limits from the budget the API stored with it (already filled with the caller's tier
 * defaults). The deadline counts from the run's first start, so a retry does not get a new one.
 */
export function budgetLimits(budget: RunBudgetRequest | undefined, startedAt: Date | string | null): BudgetLimits {
  const started = startedAt ? new Date(startedAt).getTime() : Date.now();
  return {
    maxTokens: budget?.max_tokens ?? Number.POSITIVE_INFINITY,
    maxCost: budget?.max_cost ?? Number.POSITIVE_INFINITY,
    deadline: started + (budget?.timeout_seconds ?? 24 * 3_600) * 1_000,
  };
}
