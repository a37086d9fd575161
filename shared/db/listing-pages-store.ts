import type { DataSource } from "typeorm";
import type { PromptRow } from "./entities/prompt.entity";
import { listedPrompt } from "./prompt-visibility";
import { sql } from "./sql";

// The lists the marketplace's own pages show beyond the listing search: the moderators' queue.

/**
 * The listings waiting for review, oldest first (the longest wait is decided first), leaving out the
 * moderator's own: a moderator never reviews their own listing.
 */
export async function listPendingReview(ds: DataSource, moderatorId: string, limit: number): Promise<PromptRow[]> {
  return sql<PromptRow>(
    ds,
    `SELECT * FROM prompts
      WHERE status = 'pending' AND user_id <> $1 AND ${listedPrompt()}
      ORDER BY created_at ASC, id ASC
      LIMIT $2`,
    [moderatorId, limit],
  );
}
