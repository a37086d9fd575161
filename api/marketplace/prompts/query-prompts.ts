import type { DataSource } from "typeorm";
import { toPromptRecord, type PromptRecord } from "./prompt-record";
import type { PromptRow } from "./prompt-row";
import { isModerator } from "../../../shared/db/user-store";
import { shownTo } from "./prompt-visibility";

export const SORTS = ["newest", "oldest", "popular", "rating"] as const;
export const PRICE_FILTERS = ["all", "free", "paid"] as const;

/** E9's body after validation. */
export interface PromptQuery {
  search?: string | null;
  category?: string | null;
  priceFilter: (typeof PRICE_FILTERS)[number];
  userFilter?: string | null;
  sortBy: (typeof SORTS)[number];
  limit: number;
  offset: number;
}

const AVERAGE = "CASE WHEN review_count > 0 THEN rating_sum::float / review_count END";

// Fixed texts chosen by a validated enum, never built from the request. Ties: newest first.
const ORDER_BY: Record<PromptQuery["sortBy"], string> = {
  newest: "created_at DESC, id DESC",
  oldest: "created_at ASC, id ASC",
  popular: `review_count DESC, ${AVERAGE} DESC NULLS LAST, created_at DESC, id DESC`,
  rating: `${AVERAGE} DESC NULLS LAST, created_at DESC, id DESC`,
};

/** A LIKE pattern matching the text anywhere, with LIKE's own characters taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * E9: prompts matching every given filter (`search` as a case-insensitive substring of name or
 * description, `category` case-insensitively, free/paid, one user), sorted and paged. Approved
 * prompts are shown to anyone; prompts waiting for review or rejected only to their owner and to
 * moderators (who see paid text too, see toPromptRecord); a prompt whose token is still being
 * launched to nobody.
 */
export async function queryPrompts(
  ds: DataSource,
  query: PromptQuery,
  viewerId: string | null,
): Promise<PromptRecord[]> {
  const isFree = query.priceFilter === "free" ? true : query.priceFilter === "paid" ? false : null;
  const moderator = viewerId !== null && (await isModerator(ds, viewerId));
  const rows: PromptRow[] = await ds.query(
    `SELECT * FROM prompts
      WHERE ${shownTo({ viewer: "$1", moderator: "$8" })}
        AND ($2::text IS NULL OR name ILIKE $2 OR description ILIKE $2)
        AND ($3::text IS NULL OR lower(category) = lower($3))
        AND ($4::boolean IS NULL OR is_free = $4)
        AND ($5::uuid IS NULL OR user_id = $5::uuid)
      ORDER BY ${ORDER_BY[query.sortBy]}
      LIMIT $6 OFFSET $7`,
    [
      viewerId,
      query.search ? containsPattern(query.search) : null,
      query.category || null,
      isFree,
      query.userFilter || null,
      query.limit,
      query.offset,
      moderator,
    ],
  );
  return rows.map((row) => toPromptRecord(row, viewerId, moderator));
}
