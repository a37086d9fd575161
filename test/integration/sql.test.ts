import { expect } from "chai";
import type { Pool } from "pg";
import { sql, transaction, Transaction } from "../../shared/db/sql";
import { ensureUser } from "../../shared/db/user-store";
import { harness, type Harness } from "../helpers/harness";

/** The one way the code reaches Postgres (shared/db/sql.ts), against the real database. */
describe("sql and transaction", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  const handleOf = (id: string) =>
    sql<{ handle: string }>(h.deps.ds, `SELECT handle FROM users WHERE id = $1`, [id]).then((rows) => rows[0]?.handle);

  it("answers every kind of statement with its rows: an UPDATE's are those it returns, none without RETURNING", async () => {
    const user = await ensureUser(h.deps.ds, `sql-rows-${Date.now()}`);
    const returned = await sql<{ id: string }>(h.deps.ds, `UPDATE users SET role = role WHERE id = $1 RETURNING id`, [
      user.id,
    ]);
    expect(returned).to.deep.equal([{ id: user.id }]);
    expect(await sql(h.deps.ds, `UPDATE users SET role = role WHERE id = $1`, [user.id])).to.deep.equal([]);
  });

  it("commits what the work wrote when it returns, and nothing when it throws", async () => {
    const user = await ensureUser(h.deps.ds, `sql-tx-${Date.now()}`);
    const rename = (handle: string) => (tx: Transaction) =>
      sql(tx, `UPDATE users SET handle = $2 WHERE id = $1`, [user.id, handle]);

    const failed = await transaction(h.deps.ds, async (tx) => {
      await rename(`${user.handle}-rolled-back`)(tx);
      // Inside, the write is seen; outside, not yet.
      expect(
        (await sql<{ handle: string }>(tx, `SELECT handle FROM users WHERE id = $1`, [user.id]))[0].handle,
      ).to.equal(`${user.handle}-rolled-back`);
      expect(await handleOf(user.id)).to.equal(user.handle);
      throw new Error("the work failed");
    }).catch((err: Error) => err);
    expect(failed).to.be.an("error").with.property("message", "the work failed");
    expect(await handleOf(user.id)).to.equal(user.handle);

    expect(await transaction(h.deps.ds, async (tx) => (await rename(`${user.handle}-kept`)(tx), "done"))).to.equal(
      "done",
    );
    expect(await handleOf(user.id)).to.equal(`${user.handle}-kept`);
  });

  it("gives the connection back to the pool after each transaction, committed or not", async () => {
    // More transactions than the pool has connections: one kept would leave the last ones waiting forever.
    const pool = (h.deps.ds.driver as unknown as { master: Pool }).master;
    const count = pool.options.max * 2 + 1;
    let ended = 0;
    for (let i = 0; i < count; i++) {
      await transaction(h.deps.ds, async (tx) => {
        await sql(tx, `SELECT 1`);
        if (i % 2) throw new Error("rolled back");
      }).catch(() => undefined);
      ended++;
    }
    expect(ended).to.equal(count);
  });

  it("names a bounded number of distinct statements, so texts built from a request cannot pile up on a connection", async () => {
    const marker = `bounded_${Date.now()}`;
    const kept = await transaction(h.deps.ds, async (tx) => {
      for (let i = 0; i < 600; i++) await sql(tx, `SELECT $1::int + ${i} AS ${marker}`, [1]);
      const rows = await sql<{ n: string }>(
        tx,
        `SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%' || $1`,
        [marker],
        { unnamed: true },
      );
      return Number(rows[0].n);
    });
    expect(kept).to.be.at.most(500);
  });

  it("refuses a relaxed write inside a transaction, which has its own connection", async () => {
    const err = await transaction(h.deps.ds, (tx) => sql(tx, `SELECT 1`, [], { relaxed: true })).catch((e: Error) => e);
    expect(err).to.be.an("error").with.property("message", "A relaxed write cannot join a transaction");
  });
});
