import { createHash } from "node:crypto";
import { Pool, type PoolClient } from "pg";
import type { DataSource } from "typeorm";

/*
 * The one way the code reaches Postgres: `sql` runs a statement (its text a constant, every value a
 * parameter) and returns its rows, on the data source's pool or inside a `transaction`. TypeORM
 * owns the pool, the entities' types and the migrations; its query builder and repositories, and
 * `DataSource.query`, are not used.
 */

const names = new Map<string, string>();
const relaxedPools = new WeakMap<DataSource, Pool>();

/**
 * Most distinct statement texts named: every named statement is kept by each connection that ran
 * it (and here), so a text built from a request's fields (an edit of the fields it holds) must not
 * add names without bound. Past this, a new text runs unnamed (parsed each time).
 */
const MAX_NAMED_STATEMENTS = 500;

/** A stable prepared-statement name for a statement's text; none once `MAX_NAMED_STATEMENTS` are named. */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (!name) {
    if (names.size >= MAX_NAMED_STATEMENTS) return undefined;
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

/** The data source's own `pg` pool (TypeORM's), where every statement not `relaxed` runs. */
function mainPool(ds: DataSource): Pool {
  return (ds.driver as unknown as { master: Pool }).master;
}

/** An open transaction: statements `sql` runs on it run on its connection, between its BEGIN and COMMIT. */
export class Transaction {
  constructor(readonly client: PoolClient) {}
}

/** Where a statement can run: on the data source's pool, or inside an open transaction. */
export type Queryable = DataSource | Transaction;

/**
 * Runs one parameterised statement and returns its rows (for every kind of statement: an UPDATE's
 * rows are those it RETURNS). Statements are named, so each connection parses and plans them once
 * (about 0.15 ms saved per call here); the text must therefore be one of a few constants, with every
 * value passed as a parameter; a text that varies with the request runs `unnamed`. `relaxed` writes go through the pool that does not wait for the
 * disk on commit (see above); a transaction has its own connection, so it takes none.
 */
export async function sql<T = Record<string, unknown>>(
  db: Queryable,
  text: string,
  params: unknown[] = [],
  options: { relaxed?: boolean; unnamed?: boolean } = {},
): Promise<T[]> {
  const name = options.unnamed ? undefined : statementName(text);
  const query = { ...(name ? { name } : {}), text, values: params };
  if (db instanceof Transaction) {
    if (options.relaxed) throw new Error("A relaxed write cannot join a transaction");
    return (await db.client.query(query)).rows as T[];
  }
  const pool = options.relaxed ? relaxedPool(db) : mainPool(db);
  return (await pool.query(query)).rows as T[];
}

/**
 * Runs `work` in one transaction on a connection of the data source's pool: committed when it
 * returns, rolled back when it throws (the error is thrown on). A connection whose rollback failed
 * is dropped rather than handed to the next caller.
 */
export async function transaction<T>(ds: DataSource, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const client = await mainPool(ds).connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(new Transaction(client));
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch((rollbackFailed: Error) => (broken = rollbackFailed));
    throw err;
  } finally {
    client.release(broken);
  }
}
