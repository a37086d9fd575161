import type { DataSource } from "typeorm";
import type { ListingKind, PromptRow } from "./entities/prompt.entity";
import { listedPrompt, shownTo } from "./prompt-visibility";
import { sql } from "./sql";
import { isUuid } from "./uuid";

/** A `prompts` row as the marketplace listing shows it. */
export type MarketplacePromptRow = Pick<
  PromptRow,
  | "id"
  | "created_at"
  | "user_id"
  | "name"
  | "description"
  | "prompt"
  | "use_cases"
  | "status"
  | "tags"
  | "category"
  | "links"
  | "is_free"
>;

// A bundle has no text of its own to run or show here: `POST /api/query-bundles` lists bundles.
const LISTED_APPROVED = `status = 'approved' AND kind <> 'bundle' AND ${listedPrompt()}`;

/**
 * `POST /v1/marketplace/agents`: the `limit` newest approved prompts (ties broken by id, so pages are stable) and how many
 * approved prompts there are in all. Both statements use the `(status, created_at DESC)` index.
 */
export async function listApprovedPrompts(
  ds: DataSource,
  limit: number,
): Promise<{ rows: MarketplacePromptRow[]; total: number }> {
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
  return { rows, total: count };
}

export type PromptSort = "newest" | "oldest" | "popular" | "rating";

/** The listing query's filters, each null for "any". */
export interface PromptSearch {
  kind: ListingKind | null;
  /** A case-insensitive substring of the name or the description. */
  search: string | null;
  category: string | null;
  /** Tags the listing must all carry (compared trimmed and case-insensitively); null or absent for any. */
  tags?: string[] | null;
  isFree: boolean | null;
  userId: string | null;
  sortBy: PromptSort;
  limit: number;
  offset: number;
}

const AVERAGE = "CASE WHEN review_count > 0 THEN rating_sum::float / review_count END";

// Fixed texts chosen by a validated enum, never built from the request. Ties: newest first.
const ORDER_BY: Record<PromptSort, string> = {
  newest: "created_at DESC, id DESC",
  oldest: "created_at ASC, id ASC",
  popular: `review_count DESC, ${AVERAGE} DESC NULLS LAST, created_at DESC, id DESC`,
  rating: `${AVERAGE} DESC NULLS LAST, created_at DESC, id DESC`,
};

/** A LIKE pattern matching the text anywhere, with LIKE's own characters taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `POST /api/query-prompts`, `/api/query-agents` and the marketplace page: the listings (of one kind, or both) matching every filter that the viewer (or a moderator) may see, sorted and paged. */
export async function searchPrompts(
  ds: DataSource,
  filters: PromptSearch,
  viewer: { userId: string | null; moderator: boolean },
): Promise<PromptRow[]> {
  return sql<PromptRow>(
    ds,
    `SELECT * FROM prompts
      WHERE ${shownTo({ viewer: "$1", moderator: "$8" })}
        AND ($2::text IS NULL OR name ILIKE $2 OR description ILIKE $2)
        AND ($3::text IS NULL OR lower(category) = lower($3))
        AND ($4::boolean IS NULL OR is_free = $4)
        AND ($5::uuid IS NULL OR user_id = $5::uuid)
        AND ($9::text IS NULL OR kind = $9)
        AND ($10::text[] IS NULL OR $10::text[] <@ ARRAY(
              SELECT lower(btrim(tag)) FROM unnest(string_to_array(coalesce(tags, ''), ',')) AS tag))
      ORDER BY ${ORDER_BY[filters.sortBy]}
      LIMIT $6 OFFSET $7`,
    [
      viewer.userId,
      filters.search ? containsPattern(filters.search) : null,
      filters.category,
      filters.isFree,
      filters.userId,
      filters.limit,
      filters.offset,
      viewer.moderator,
      filters.kind,
      filters.tags?.length ? filters.tags.map((t) => t.toLowerCase()) : null,
    ],
  );
}

/** What `marketplace_prompt_id` needs of a stored prompt. */
export type RunnablePrompt = Pick<PromptRow, "id" | "user_id" | "prompt" | "status">;

/** The listed prompts with these ids, in one query (ids must be UUIDs). */
export async function findListedPrompts(ds: DataSource, ids: string[]): Promise<RunnablePrompt[]> {
  return sql<RunnablePrompt>(
    ds,
    `SELECT id, user_id, prompt, status FROM prompts WHERE id = ANY($1::uuid[]) AND kind <> 'bundle' AND ${listedPrompt()}`,
    [ids],
  );
}

/** A marketplace prompt as its listing page shows it; `prompt` is null when the viewer may not read it. */
export interface PromptPageRecord extends Pick<
  PromptRow,
  | "id"
  | "user_id"
  | "name"
  | "description"
  | "tags"
  | "is_free"
  | "price_usd"
  | "price"
  | "category"
  | "status"
  | "tokenized_on"
  | "ticker"
  | "token_address"
  | "pool_address"
  | "image_url"
  | "created_at"
  | "kind"
  | "language"
  | "requirements"
> {
  prompt: string | null;
  /** The moderator's reason, for the owner only (null for anyone else). */
  moderation_reason: string | null;
  use_cases: unknown;
  links: unknown;
  review_count: number;
  rating_average: number | null;
}

/*
 * Visibility is decided here, in the query: a paid prompt's text leaves Postgres only for its
 * owner, a prompt that is not approved (waiting for review, or rejected) is found only by its
 * owner (who alone reads the moderator's reason), and a tokenized prompt has a page only once its token has launched.
 */
const FIND_PROMPT_PAGE = `
  SELECT p.id, p.user_id, p.name, p.description, p.use_cases, p.tags, p.is_free, p.price_usd, p.price,
         p.category, p.status, p.tokenized_on, p.ticker, p.token_address, p.pool_address, p.image_url,
         p.links, p.created_at, p.kind, p.language, p.requirements,
         CASE WHEN p.is_free OR p.user_id = $2::uuid THEN p.prompt END AS prompt,
         CASE WHEN p.user_id = $2::uuid THEN p.moderation_reason END AS moderation_reason,
         r.review_count, r.rating_average
    FROM prompts p
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS review_count, avg(rating)::float8 AS rating_average
        FROM prompt_reviews WHERE prompt_id = p.id
    ) r
   WHERE p.id = $1::uuid AND ${shownTo({ viewer: "$2" }, "p")}`;

/** The prompt with this id as `viewerId` (null: anonymous) may see it; null when it is not theirs to see. */
export async function findPromptPage(
  ds: DataSource,
  id: string,
  viewerId: string | null,
): Promise<PromptPageRecord | null> {
  if (!isUuid(id)) return null;
  const rows = await sql<PromptPageRecord>(ds, FIND_PROMPT_PAGE, [id, viewerId]);
  return rows[0] ?? null;
}
