import { config } from "../../shared/config";
import type { RunBudgetRequest } from "../../shared/contracts/agent-spec";
import type { SharedSpendCeilings } from "../../shared/limits/shared-spend";

/** The budget stored with a run: its own ceilings, and those it shares with other runs. */
export type StoredRunBudget = Required<Omit<RunBudgetRequest, "on_exceeded">> &
  Pick<RunBudgetRequest, "on_exceeded"> &
  SharedSpendCeilings;

/**
 * The budget a run gets: what the request asks for, never above the caller's tier ceilings, which
 * also fill in whatever the request leaves out. The run's spend also counts against what all runs
 * of the same request may spend together (a batch's items share the tier's one-run ceiling, so a
 * batch of N items cannot spend N times it) and against the account's daily ceiling.
 */
export function effectiveBudget(requested: RunBudgetRequest | undefined, tier: string): StoredRunBudget {
  const limits = config.runLimits;
  const maxTokens = limits.maxTokens[tier] ?? limits.maxTokens.free;
  const maxCost = limits.maxCost[tier] ?? limits.maxCost.free;
  const accounts: Record<string, { dailyTokens: number; dailyCost: number }> = config.accountLimits.tiers;
  const account = Object.hasOwn(accounts, tier) ? accounts[tier] : accounts.free;
  return {
    max_tokens: Math.min(requested?.max_tokens ?? maxTokens, maxTokens),
    max_cost: Math.min(requested?.max_cost ?? maxCost, maxCost),
    timeout_seconds: Math.min(requested?.timeout_seconds ?? limits.maxSeconds, limits.maxSeconds),
    ...(requested?.on_exceeded ? { on_exceeded: requested.on_exceeded } : {}),
    request_total: { max_tokens: maxTokens, max_cost: maxCost },
    account_daily: { max_tokens: account.dailyTokens, max_cost: account.dailyCost },
  };
}
