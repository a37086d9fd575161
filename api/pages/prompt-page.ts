import type { DataSource } from "typeorm";
import { sql } from "../../shared/db/sql";
import { shownTo } from "../marketplace/prompts/prompt-visibility";
import { isUuid } from "../../shared/db/uuid";

/** A marketplace prompt as its listing page shows it; `prompt` is null when the viewer may not read it. */
export interface PromptPageRecord {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  prompt: string | null;
  use_cases: unknown;
  tags: string | null;
  is_free: boolean;
  price_usd: number | null;
  price: number | null;
  category: string | null;
  status: "pending" | "approved" | "rejected";
  tokenized_on: boolean;
  ticker: string | null;
  token_address: string | null;
  pool_address: string | null;
  image_url: string | null;
  links: unknown;
  created_at: Date;
  review_count: number;
  rating_average: number | null;
}

/*
 * Visibility is decided here, in the query: a paid prompt's text leaves Postgres only for its
 * owner, a prompt that is not approved (waiting for review, or rejected) is found only by its
 * owner, and a tokenized prompt has a page only once its token has launched.
 */
const FIND_PROMPT = `
  SELECT p.id, p.user_id, p.name, p.description, p.use_cases, p.tags, p.is_free, p.price_usd, p.price,
         p.category, p.status, p.tokenized_on, p.ticker, p.token_address, p.pool_address, p.image_url,
         p.links, p.created_at,
         CASE WHEN p.is_free OR p.user_id = $2::uuid THEN p.prompt END AS prompt,
         r.review_count, r.rating_average
    FROM prompts p
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS review_count, avg(rating)::float8 AS rating_average
        FROM prompt_reviews WHERE prompt_id = p.id
    ) r
   WHERE p.id = $1::uuid AND ${shownTo({ viewer: "$2" }, "p")}`;

/** The prompt with this id as `viewerId` (null: anonymous) may see it; null when it is not theirs to see. */
export async function findPromptForPage(
  ds: DataSource,
  id: string,
  viewerId: string | null,
): Promise<PromptPageRecord | null> {
  if (!isUuid(id)) return null;
  const rows = await sql<PromptPageRecord>(ds, FIND_PROMPT, [id, viewerId]);
  return rows[0] ?? null;
}
