import type { RunBudgetRequest, StoredBudget } from "../../shared/contracts/agent-spec";
import {
  ACCOUNT_SPEND_TTL_MS,
  accountSpendKey,
  REQUEST_SPEND_TTL_MS,
  requestSpendKey,
} from "../../shared/limits/shared-spend";
import { utcDay } from "../../shared/limits/utc-day";
import type { BudgetLimits } from "./call-allowance";
import type { SpendPool } from "./spend-pools";
import { accountPrefix } from "../../shared/queues/shards";

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

/**
 * The pools a run draws from besides its own budget: the request's (when the run is an item of a
 * batch, every item of which draws from it) and its account's spend of the UTC day it starts in.
 */
export function sharedPools(
  budget: StoredBudget | undefined,
  run: { parent_id: string | null; user_id: string | null },
  now = new Date(),
): SpendPool[] {
  const pools: SpendPool[] = [];
  const total = budget?.request_total;
  if (run.parent_id && total) {
    pools.push({
      key: requestSpendKey(run.parent_id, accountPrefix(run.user_id)),
      maxTokens: total.max_tokens,
      maxCost: total.max_cost,
      holdsPrompts: true,
      ttlMs: REQUEST_SPEND_TTL_MS,
      exhausted: (measure) =>
        measure === "tokens"
          ? `The batch's items together reached their limit of ${total.max_tokens} tokens (they share one budget)`
          : `The batch's items together reached their cost limit of $${total.max_cost} (they share one budget)`,
    });
  }
  const daily = budget?.account_daily;
  if (run.user_id && daily) {
    pools.push({
      key: accountSpendKey(run.user_id, utcDay(now)),
      maxTokens: daily.max_tokens,
      maxCost: daily.max_cost,
      // Reached, not never passed: once the day's spend gets there the API refuses new runs (429),
      // so the last calls may pass it by their prompts rather than stop with room left.
      holdsPrompts: false,
      ttlMs: ACCOUNT_SPEND_TTL_MS,
      exhausted: (measure) =>
        measure === "tokens"
          ? `The account reached its daily limit of ${daily.max_tokens} tokens (all its runs of the UTC day together)`
          : `The account reached its daily cost limit of $${daily.max_cost} (all its runs of the UTC day together)`,
    });
  }
  return pools;
}
