import type { DataSource } from "typeorm";
import { countUsedAgentConfigs } from "../../shared/db/agent-history-store";
import { completionCounts } from "../../shared/db/completion-count-store";
import { ledgerTotals } from "../../shared/db/usage-store";
import { roundCost } from "../../shared/llm/pricing";

/** `GET /v1/metrics/summary`'s body, the hosted API's field names. */
export interface MetricsSummary {
  success: true;
  unique_agents: number;
  total_completion_calls: number;
  successful_completions: number;
  completions_last_24h: number;
  completions_last_7d: number;
  /** Tokens of every call the account's runs made, from the billing ledger. */
  total_tokens: number;
  /** Everything the account's runs were billed, from the billing ledger: what GET /v1/usage sums. */
  total_cost: number;
  timestamp: string;
}

/**
 * The caller's account at a glance: how many distinct agent configurations it has run (the ones
 * `GET /v1/agents/list` lists), its completion calls (see `completionCounts` for what counts
 * as one) in all, succeeded, and in the last 24 hours and 7 days, and its tokens and spend in all.
 */
export async function metricsSummary(
  ds: DataSource,
  owner: { userId: string },
  now = new Date(),
): Promise<MetricsSummary> {
  const [agents, counts, ledger] = await Promise.all([
    countUsedAgentConfigs(ds, owner.userId),
    completionCounts(ds, owner.userId, now),
    ledgerTotals(ds, owner.userId),
  ]);
  return {
    success: true,
    unique_agents: agents,
    total_completion_calls: counts.total,
    successful_completions: counts.succeeded,
    completions_last_24h: counts.last_24h,
    completions_last_7d: counts.last_7d,
    total_tokens: ledger.input_tokens + ledger.output_tokens,
    total_cost: roundCost(ledger.cost),
    timestamp: now.toISOString(),
  };
}
