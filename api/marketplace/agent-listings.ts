import type { DataSource } from "typeorm";
import { sql } from "../../shared/db/sql";
import { presentMarketplacePrompt, type MarketplacePrompt, type MarketplacePromptRow } from "./prompt.presenter";
import { isoWithoutZone } from "../runs/presenters/timestamp";
import { listedPrompt } from "./prompts/prompt-visibility";

const LISTED_APPROVED = `status = 'approved' AND ${listedPrompt()}`;

/** E4's answer. */
export interface MarketplaceListing {
  prompts: MarketplacePrompt[];
  total_count: number;
  status: "success";
  timestamp: string;
}

/**
 * E4: the `limit` newest approved prompts (ties broken by id, so pages are stable) and how many
 * approved prompts there are in all. Both statements use the `(status, created_at DESC)` index.
 */
export async function listMarketplacePrompts(
  ds: DataSource,
  viewer: { userId: string },
  limit: number,
): Promise<MarketplaceListing> {
  const [rows, [{ count }]] = await Promise.all([
    sql<MarketplacePromptRow>(
      ds,
      `SELECT id, created_at, user_id, name, description, prompt, use_cases, status, tags, category, links, is_free
         FROM prompts
        WHERE ${LISTED_APPROVED}
        ORDER BY created_at DESC, id DESC
        LIMIT $1`,
      [limit],
    ),
    sql<{ count: number }>(ds, `SELECT count(*)::int AS count FROM prompts WHERE ${LISTED_APPROVED}`),
  ]);
  return {
    prompts: rows.map((row) => presentMarketplacePrompt(row, viewer.userId)),
    total_count: count,
    status: "success",
    timestamp: isoWithoutZone(),
  };
}
