import type { DailyUsageRow, QuotaColumn } from "./entities/daily-usage.entity";
import { sql, type Queryable } from "./sql";

export type UsageCounts = Pick<DailyUsageRow, "paid_prompts" | "paid_agents" | "free_content">;

// Column names are interpolated into SQL: only these fixed names, never anything from a request.
const QUOTA_COLUMNS: readonly QuotaColumn[] = ["paid_prompts", "paid_agents", "free_content"];

function assertQuotaColumn(column: QuotaColumn): void {
  if (!QUOTA_COLUMNS.includes(column)) throw new Error(`Unknown daily counter ${column}`);
}

/** A user's counts on one UTC day (`YYYY-MM-DD`), or null when nothing was counted yet. */
export async function findUsage(db: Queryable, userId: string, day: string): Promise<UsageCounts | null> {
  const rows = await sql<UsageCounts>(
    db,
    `SELECT paid_prompts, paid_agents, free_content FROM daily_usage WHERE user_id = $1 AND day = $2::date`,
    [userId, day],
  );
  return rows[0] ?? null;
}

/**
 * Adds one to a counter unless it is at `limit`, and returns the counts; null when refused. The
 * increment is conditional (`... ON CONFLICT DO UPDATE ... WHERE counter < limit RETURNING`):
 * concurrent callers queue on the row, and exactly `limit` of them get through.
 */
export async function incrementBelowLimit(
  db: Queryable,
  userId: string,
  day: string,
  column: QuotaColumn,
  limit: number,
): Promise<UsageCounts | null> {
  assertQuotaColumn(column);
  const rows = await sql<UsageCounts>(
    db,
    `INSERT INTO daily_usage AS u (user_id, day, ${column})
     SELECT $1, $2::date, 1 WHERE $3::int > 0
     ON CONFLICT (user_id, day) DO UPDATE SET ${column} = u.${column} + 1 WHERE u.${column} < $3::int
     RETURNING paid_prompts, paid_agents, free_content`,
    [userId, day, limit],
  );
  return rows[0] ?? null;
}

/** Gives back one count of a daily counter (never below zero). */
export async function giveBackCount(db: Queryable, userId: string, column: QuotaColumn, day: string): Promise<void> {
  assertQuotaColumn(column);
  await sql(db, `UPDATE daily_usage SET ${column} = GREATEST(${column} - 1, 0) WHERE user_id = $1 AND day = $2::date`, [
    userId,
    day,
  ]);
}
