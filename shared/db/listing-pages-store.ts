import type { DataSource } from "typeorm";
import type { PromptRow } from "./entities/prompt.entity";
import { containsPattern } from "./prompt-listing-store";
import { listedPrompt } from "./prompt-visibility";
import { sql } from "./sql";
import { isUuid } from "./uuid";

// What the marketplace's own pages read beyond the listing search: a seller's listings and the moderators' queue.

/** A user's listings of both kinds in every review status, newest first (a prompt whose token is still launching aside). */
export async function listOwnListings(ds: DataSource, userId: string, limit: number): Promise<PromptRow[]> {
  return sql<PromptRow>(
    ds,
    `SELECT * FROM prompts WHERE user_id = $1 AND ${listedPrompt()} ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
}

/** One of the user's listings, of either kind (a prompt whose token is still launching aside); null when it is not theirs. */
export async function findOwnListing(ds: DataSource, id: string, userId: string): Promise<PromptRow | null> {
  if (!isUuid(id)) return null;
  // A bundle's edit form is its own route's (`POST /api/edit-bundle`): the page edits prompts and agents.
  const rows = await sql<PromptRow>(
    ds,
    `SELECT * FROM prompts WHERE id = $1 AND user_id = $2 AND kind <> 'bundle' AND ${listedPrompt()}`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/**
 * The listings waiting for review, oldest first (the longest wait is decided first), leaving out the
 * moderator's own: a moderator never reviews their own listing.
 */
export async function listPendingReview(
  ds: DataSource,
  moderatorId: string,
  limit: number,
  search = "",
): Promise<PromptRow[]> {
  return sql<PromptRow>(
    ds,
    `SELECT * FROM prompts
      WHERE status = 'pending' AND user_id <> $1 AND ${listedPrompt()}
        AND ($3::text IS NULL OR name ILIKE $3 OR description ILIKE $3)
      ORDER BY created_at ASC, id ASC
      LIMIT $2`,
    [moderatorId, limit, search ? containsPattern(search) : null],
  );
}
