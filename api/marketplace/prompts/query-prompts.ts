import type { DataSource } from "typeorm";
import type { ListingKind, PromptRow } from "../../../shared/db/entities/prompt.entity";
import { isModerator } from "../../../shared/db/user-store";
import { searchPrompts, type PromptSort } from "../../../shared/db/prompt-listing-store";
import { toPromptRecord, type PromptRecord } from "./prompt-record";

export const SORTS = ["newest", "oldest", "popular", "rating"] as const satisfies readonly PromptSort[];
export const PRICE_FILTERS = ["all", "free", "paid"] as const;

/** The prompt query's body after validation. */
export interface PromptQuery {
  search?: string | null;
  category?: string | null;
  priceFilter: (typeof PRICE_FILTERS)[number];
  userFilter?: string | null;
  sortBy: (typeof SORTS)[number];
  limit: number;
  offset: number;
}

/**
 * `POST /api/query-prompts`: prompts matching every given filter (`search` as a case-insensitive substring of name or
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
  const { rows, moderator } = await queryListings(ds, query, viewerId, "prompt");
  return rows.map((row) => toPromptRecord(row, viewerId, moderator));
}

/** The listings of one kind a query matches, as `queryPrompts` describes, and whether the viewer is a moderator. */
export async function queryListings(
  ds: DataSource,
  query: PromptQuery,
  viewerId: string | null,
  kind: ListingKind,
): Promise<{ rows: PromptRow[]; moderator: boolean }> {
  const isFree = query.priceFilter === "free" ? true : query.priceFilter === "paid" ? false : null;
  const moderator = viewerId !== null && (await isModerator(ds, viewerId));
  const rows = await searchPrompts(
    ds,
    {
      kind,
      search: query.search || null,
      category: query.category || null,
      isFree,
      userId: query.userFilter || null,
      sortBy: query.sortBy,
      limit: query.limit,
      offset: query.offset,
    },
    { userId: viewerId, moderator },
  );
  return { rows, moderator };
}
