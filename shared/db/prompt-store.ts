import type { ListingKind, PromptRow } from "./entities/prompt.entity";
import { shownTo } from "./prompt-visibility";
import { sql, type Queryable } from "./sql";
import { isUniqueViolation } from "./unique-violation";

/** The columns a create or an edit writes (the rest are the table's own). */
export const PROMPT_VALUE_COLUMNS = [
  "name",
  "prompt",
  "description",
  "use_cases",
  "tags",
  "is_free",
  "price_usd",
  "price",
  "category",
  "status",
  "requested_status",
  "moderated_by",
  "moderated_at",
  "moderation_reason",
  "tokenized_on",
  "ticker",
  "image_url",
  "file_path",
  "links",
  "seller_wallet_address",
  "content_hash",
  "source",
  "kind",
  "language",
  "requirements",
  "agent_config",
] as const satisfies readonly (keyof PromptRow)[];

export type PromptValues = Pick<PromptRow, (typeof PROMPT_VALUE_COLUMNS)[number]>;

const JSON_COLUMNS = new Set(["use_cases", "links", "requirements", "agent_config"]);
const DUPLICATE_INDEX = "prompts_user_content_key";

function param(column: string, value: unknown): unknown {
  return JSON_COLUMNS.has(column) ? JSON.stringify(value) : value;
}

function placeholder(column: string, index: number): string {
  return JSON_COLUMNS.has(column) ? `$${index}::jsonb` : `$${index}`;
}

/** Stores a new prompt of a user and returns its row. */
export async function insertPrompt(db: Queryable, userId: string, values: PromptValues): Promise<PromptRow> {
  const columns = [...PROMPT_VALUE_COLUMNS];
  const rows = await sql<PromptRow>(
    db,
    `INSERT INTO prompts (user_id, ${columns.join(", ")}) VALUES ($1, ${columns.map((c, i) => placeholder(c, i + 2)).join(", ")}) RETURNING *`,
    [userId, ...columns.map((c) => param(c, values[c]))],
  );
  return rows[0];
}

/** Writes the given columns of a prompt (and `updated_at`) and returns the row as stored. */
export async function updatePrompt(db: Queryable, id: string, values: Partial<PromptValues>): Promise<PromptRow> {
  const columns = PROMPT_VALUE_COLUMNS.filter((c) => c in values);
  const sets = [...columns.map((c, i) => `${c} = ${placeholder(c, i + 2)}`), "updated_at = now()"];
  // The text depends on which fields the edit holds (thousands of subsets): run it unnamed.
  const result = await sql<PromptRow>(
    db,
    `UPDATE prompts SET ${sets.join(", ")} WHERE id = $1 RETURNING *`,
    [id, ...columns.map((c) => param(c, values[c]))],
    { unnamed: true },
  );
  return result[0];
}

/**
 * A user's listing of one kind (a prompt unless told), locked for the rest of the transaction when `forUpdate`; null
 * when it is not theirs, not of that kind, or does not exist.
 */
export async function findOwnPrompt(
  db: Queryable,
  id: string,
  userId: string,
  options: { forUpdate?: boolean; kind?: ListingKind } = {},
): Promise<PromptRow | null> {
  const rows = await sql<PromptRow>(
    db,
    `SELECT * FROM prompts WHERE id = $1 AND user_id = $2 AND kind = $3${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id, userId, options.kind ?? "prompt"],
  );
  return rows[0] ?? null;
}

/** Any prompt's owner and version, locked for the rest of the transaction (a moderator's decision); null when unknown. */
export async function lockPromptVersion(
  tx: Queryable,
  id: string,
): Promise<Pick<PromptRow, "user_id" | "updated_at"> | null> {
  const rows = await sql<Pick<PromptRow, "user_id" | "updated_at">>(
    tx,
    `SELECT user_id, updated_at FROM prompts WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ?? null;
}

/** A prompt the viewer may see, locked for the rest of the transaction (a rating); null when it is not theirs to see. */
export async function lockVisiblePrompt(
  tx: Queryable,
  id: string,
  viewerId: string,
): Promise<Pick<PromptRow, "user_id" | "status"> | null> {
  const rows = await sql<Pick<PromptRow, "user_id" | "status">>(
    tx,
    `SELECT user_id, status FROM prompts WHERE id = $1 AND ${shownTo({ viewer: "$2" })} FOR UPDATE`,
    [id, viewerId],
  );
  return rows[0] ?? null;
}

/** Adds to a prompt's rating counters (`review_count`, `rating_sum`) and returns them as stored. */
export async function addToRatingCounters(
  tx: Queryable,
  id: string,
  delta: { reviews: number; ratingSum: number },
): Promise<Pick<PromptRow, "review_count" | "rating_sum">> {
  const result = await sql<Pick<PromptRow, "review_count" | "rating_sum">>(
    tx,
    `UPDATE prompts SET review_count = review_count + $2, rating_sum = rating_sum + $3 WHERE id = $1 RETURNING review_count, rating_sum`,
    [id, delta.reviews, delta.ratingSum],
  );
  return result[0];
}

/** The id of the user's listing of this kind with this content hash (other than `exceptId`), if any. */
export async function findDuplicateId(
  db: Queryable,
  userId: string,
  hash: string,
  exceptId: string | null = null,
  kind: ListingKind = "prompt",
): Promise<string | null> {
  const rows = await sql<{ id: string }>(
    db,
    `SELECT id FROM prompts WHERE user_id = $1 AND content_hash = $2 AND ($3::uuid IS NULL OR id <> $3::uuid) AND kind = $4`,
    [userId, hash, exceptId, kind],
  );
  return rows[0]?.id ?? null;
}

/** Whether an error is the unique index on (user, content hash) refusing a concurrent duplicate. */
export function isDuplicateViolation(err: unknown): boolean {
  return isUniqueViolation(err, DUPLICATE_INDEX);
}

/** Records a launched token on its prompt, which reads as tokenized from here on with the ticker it launched with. */
export async function recordPromptToken(
  tx: Queryable,
  id: string,
  token: { ticker: string; mintAddress: string | null; poolAddress: string | null },
): Promise<void> {
  await sql(
    tx,
    `UPDATE prompts SET tokenized_on = true, ticker = $2, token_address = $3, pool_address = $4, updated_at = now() WHERE id = $1`,
    [id, token.ticker, token.mintAddress, token.poolAddress],
  );
}

/** Deletes a prompt that was made for a token launch and never got its token; false when there is none such. */
export async function deleteUnlaunchedPrompt(tx: Queryable, id: string): Promise<boolean> {
  const deleted = await sql(
    tx,
    `DELETE FROM prompts WHERE id = $1 AND tokenized_on AND token_address IS NULL RETURNING id`,
    [id],
  );
  return deleted.length > 0;
}
