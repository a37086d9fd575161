import type { DataSource } from "typeorm";
import { countUsedAgentConfigs } from "../../shared/db/agent-history-store";
import { completionCounts } from "../../shared/db/completion-count-store";

/** `GET /v1/metrics/summary`'s body, the hosted API's field names. */
export interface MetricsSummary {
  success: true;
  unique_agents: number;
  total_completion_calls: number;
  successful_completions: number;
  completions_last_24h: number;
  completions_last_7d: number;
  timestamp: string;
}

/**
 * The caller's account at a glance: how many distinct agent configurations it has run (the ones
 * `GET /v1/agents/list` lists) and its completion calls (see `completionCounts` for what counts
 * as one) in all, succeeded, and in the last 24 hours and 7 days.
 */
export async function metricsSummary(
  ds: DataSource,
  owner: { userId: string },
  now = new Date(),
): Promise<MetricsSummary> {
  const [agents, counts] = await Promise.all([
    countUsedAgentConfigs(ds, owner.userId),
    completionCounts(ds, owner.userId, now),
  ]);
  return {
    success: true,
    unique_agents: agents,
    total_completion_calls: counts.total,
    successful_completions: counts.succeeded,
    completions_last_24h: counts.last_24h,
    completions_last_7d: counts.last_7d,
    timestamp: now.toISOString(),
  };
}
