import type { Pool } from "pg";
import type { DataSource } from "typeorm";

/**
 * Runs one parameterised statement on the data source's own `pg` pool and returns its rows.
 * The spine's hot path uses this instead of `DataSource.query`, whose result shape differs by
 * statement kind (UPDATE … RETURNING yields `[rows, count]`) and which adds per-call overhead.
 */
export async function sql<T = Record<string, unknown>>(ds: DataSource, text: string, params: unknown[] = []): Promise<T[]> {
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const result = await pool.query(text, params);
  return result.rows as T[];
}
