import { createHash } from "node:crypto";
import { Pool } from "pg";
import type { DataSource } from "typeorm";

const names = new Map<string, string>();
const relaxedPools = new WeakMap<DataSource, Pool>();

/** A stable prepared-statement name for a statement's text. */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `apiary_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A small second pool whose commits do not wait for the disk (`synchronous_commit = off`), for
 * writes a Postgres crash may lose without harm because the job that made them is retried and
 * redoes them: claiming a run, storing a finished step. Never for a run's final state.
 */
function relaxedPool(ds: DataSource): Pool {
  let pool = relaxedPools.get(ds);
  if (!pool) {
    const options = ds.options as { url?: string };
    pool = new Pool({
      connectionString: options.url,
      max: 5,
      options: "-c synchronous_commit=off",
      application_name: "apiary-relaxed",
    });
    pool.on("error", () => undefined); // a broken idle connection is replaced on the next query
    relaxedPools.set(ds, pool);
  }
  return pool;
}

/** Closes a data source's relaxed pool, if it opened one (part of closing the data source). */
export async function closeRelaxedPool(ds: DataSource): Promise<void> {
  const pool = relaxedPools.get(ds);
  relaxedPools.delete(ds);
  await pool?.end().catch(() => undefined);
}

/**
 * Runs one parameterised statement on the data source's own `pg` pool and returns its rows.
 * The spine's hot path uses this instead of `DataSource.query`, whose result shape differs by
 * statement kind (UPDATE … RETURNING yields `[rows, count]`) and which adds per-call overhead.
 * Statements are named, so each connection parses and plans them once (about 0.15 ms saved per
 * call here); the text must therefore be a constant, with every value passed as a parameter.
 * `relaxed` writes go through the pool that does not wait for the disk on commit (see above).
 */
export async function sql<T = Record<string, unknown>>(
  ds: DataSource,
  text: string,
  params: unknown[] = [],
  options: { relaxed?: boolean } = {},
): Promise<T[]> {
  const pool = options.relaxed ? relaxedPool(ds) : (ds.driver as unknown as { master: Pool }).master;
  const result = await pool.query({ name: statementName(text), text, values: params });
  return result.rows as T[];
}
