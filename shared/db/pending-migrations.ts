import type { DataSource } from "typeorm";
import { sql } from "./sql";

/** Postgres's SQLSTATE for a table that does not exist (no migration ever ran). */
const UNDEFINED_TABLE = "42P01";

/** Data sources whose migrations were all found applied: the list is fixed for a process, so once is enough. */
const upToDate = new WeakSet<DataSource>();

/**
 * The migrations this code knows that the database has not recorded as run (all of them on an empty
 * database). A process whose schema is behind its code must not serve: the `release` step has not run.
 */
export async function pendingMigrations(ds: DataSource): Promise<string[]> {
  if (upToDate.has(ds)) return [];
  const known = ds.migrations.map((m) => m.name ?? m.constructor.name);
  let rows: { name: string }[];
  try {
    rows = await sql<{ name: string }>(ds, `SELECT name FROM "${ds.options.migrationsTableName ?? "migrations"}"`);
  } catch (err) {
    if ((err as { code?: string }).code === UNDEFINED_TABLE) return known;
    throw err;
  }
  const applied = new Set(rows.map((r) => r.name));
  const pending = known.filter((name) => !applied.has(name));
  if (pending.length === 0) upToDate.add(ds);
  return pending;
}
