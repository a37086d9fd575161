import type { DataSource } from "typeorm";
import { usedAgentConfigs } from "../../shared/db/agent-history-store";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";

/** `GET /v1/agents/list`'s default and greatest `limit`: one page of specs stays a modest answer. */
export const AGENTS_LIST_DEFAULT = 100;
export const AGENTS_LIST_MAX = 500;

/** `GET /v1/agents/list`'s body. */
export interface AgentList {
  success: true;
  /** Every distinct configuration of the account, even those past `limit`. */
  count: number;
  limit: number;
  /** Whether there are more configurations than `agents` holds. */
  has_more: boolean;
  agents: Record<string, unknown>[];
  timestamp: string;
}

/**
 * An agent as the list shows it. Its stored spec already holds the marker in place of every
 * secret (MCP tokens and headers, credential-like `llm_args`, a marketplace prompt's text); the
 * same withholding runs again here, so a run stored before a rule existed cannot leak through this
 * door either. An agent whose prompt comes from the marketplace shows no `system_prompt` at all:
 * its `marketplace_prompt_id` is how it is reused, and a paid prompt's text is not the caller's to read.
 */
function presentable(spec: Record<string, unknown>): Record<string, unknown> {
  const [clean] = withholdSwarmSecrets({ agents: [spec as unknown as AgentSpec] }).request.agents ?? [];
  return withoutMarketplacePromptText(clean as unknown as Record<string, unknown>);
}

function withoutMarketplacePromptText(spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...spec };
  if (typeof out.marketplace_prompt_id === "string" && out.marketplace_prompt_id.trim()) delete out.system_prompt;
  if (Array.isArray(out.handoffs)) {
    out.handoffs = out.handoffs.map((h: unknown) =>
      h && typeof h === "object" ? withoutMarketplacePromptText(h as Record<string, unknown>) : h,
    );
  }
  return out;
}

/**
 * The caller's account's distinct agent configurations (see `usedAgentConfigs` for what makes two
 * the same), most recently used first, at most `limit`. Only the account's own runs are read.
 */
export async function listUsedAgents(
  ds: DataSource,
  owner: { userId: string },
  limit: number,
  now = new Date(),
): Promise<AgentList> {
  const { total, specs } = await usedAgentConfigs(ds, owner.userId, limit);
  return {
    success: true,
    count: total,
    limit,
    has_more: total > specs.length,
    agents: specs.map(presentable),
    timestamp: now.toISOString(),
  };
}
