import { Client } from "pg";

/** What one database did: committed transactions, and rows written per table. */
export interface DatabaseActivity {
  commits: number;
  inserted: Record<string, number>;
  updated: Record<string, number>;
  /** Of `updated`, heap-only updates (no index entries written). */
  hotUpdated: Record<string, number>;
}

/**
 * Reads a database's counters from `pg_stat_database` and `pg_stat_user_tables`, for a window's
 * deltas. The statistics reach those views when a backend reports them (at the end of each
 * transaction, at most every second or so): read a few seconds after the work, or force it with
 * `pg_stat_force_next_flush()` on the working connections, which a probe cannot do; so `settle`.
 */
export async function readDatabaseActivity(client: Client): Promise<DatabaseActivity> {
  await client.query("SELECT pg_stat_clear_snapshot()");
  const [db] = (
    await client.query<{ commits: string }>(
      "SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()",
    )
  ).rows;
  const tables = await client.query<{ relname: string; ins: string; upd: string; hot: string }>(
    "SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables",
  );
  const by = (field: "ins" | "upd" | "hot") =>
    Object.fromEntries(tables.rows.map((row) => [row.relname, Number(row[field])]));
  return { commits: Number(db.commits), inserted: by("ins"), updated: by("upd"), hotUpdated: by("hot") };
}

/** `after − before`, per counter (tables only in `after` count from zero). */
export function activityBetween(before: DatabaseActivity, after: DatabaseActivity): DatabaseActivity {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([table, n]) => [table, n - (b[table] ?? 0)]));
  return {
    commits: after.commits - before.commits,
    inserted: minus(after.inserted, before.inserted),
    updated: minus(after.updated, before.updated),
    hotUpdated: minus(after.hotUpdated, before.hotUpdated),
  };
}
