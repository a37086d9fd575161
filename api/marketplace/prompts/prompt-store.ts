import { isUniqueViolation } from "../../../shared/db/unique-violation";
import type { Queryable } from "../../limits/daily-limits";
import { PROMPT_VALUE_COLUMNS, type PromptRow, type PromptValues } from "./prompt-row";

const JSON_COLUMNS = new Set(["use_cases", "links"]);
const DUPLICATE_INDEX = "prompts_user_content_key";

/** TypeORM answers UPDATE … RETURNING with `[rows, count]` and other statements with rows. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

function param(column: string, value: unknown): unknown {
  return JSON_COLUMNS.has(column) ? JSON.stringify(value) : value;
}

function placeholder(column: string, index: number): string {
  return JSON_COLUMNS.has(column) ? `$${index}::jsonb` : `$${index}`;
}

/** Stores a new prompt of a user and returns its row. */
export async function insertPrompt(db: Queryable, userId: string, values: PromptValues): Promise<PromptRow> {
  const columns = [...PROMPT_VALUE_COLUMNS];
  const rows = await db.query(
    `INSERT INTO prompts (user_id, ${columns.join(", ")}) VALUES ($1, ${columns.map((c, i) => placeholder(c, i + 2)).join(", ")}) RETURNING *`,
    [userId, ...columns.map((c) => param(c, values[c]))],
  );
  return rowsOf<PromptRow>(rows)[0];
}

/** Writes the given columns of a prompt (and `updated_at`) and returns the row as stored. */
export async function updatePrompt(db: Queryable, id: string, values: Partial<PromptValues>): Promise<PromptRow> {
  const columns = PROMPT_VALUE_COLUMNS.filter((c) => c in values);
  const sets = [...columns.map((c, i) => `${c} = ${placeholder(c, i + 2)}`), "updated_at = now()"];
  const result = await db.query(`UPDATE prompts SET ${sets.join(", ")} WHERE id = $1 RETURNING *`, [
    id,
    ...columns.map((c) => param(c, values[c])),
  ]);
  return rowsOf<PromptRow>(result)[0];
}

/** A user's prompt, locked for the rest of the transaction when `forUpdate`; null when it is not theirs or does not exist. */
export async function findOwnPrompt(
  db: Queryable,
  id: string,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<PromptRow | null> {
  const rows = await db.query(
    `SELECT * FROM prompts WHERE id = $1 AND user_id = $2${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id, userId],
  );
  return rowsOf<PromptRow>(rows)[0] ?? null;
}

/** The id of the user's prompt with this content hash (other than `exceptId`), if any. */
export async function findDuplicateId(
  db: Queryable,
  userId: string,
  hash: string,
  exceptId: string | null = null,
): Promise<string | null> {
  const rows = await db.query(
    `SELECT id FROM prompts WHERE user_id = $1 AND content_hash = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [userId, hash, exceptId],
  );
  return rowsOf<{ id: string }>(rows)[0]?.id ?? null;
}

/** Whether an error is the unique index on (user, content hash) refusing a concurrent duplicate. */
export function isDuplicateViolation(err: unknown): boolean {
  return isUniqueViolation(err, DUPLICATE_INDEX);
}
