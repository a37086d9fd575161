import { expect } from "chai";
import { RUN_KINDS } from "../../shared/runs/run-kind-catalog";
import { harness, type Harness } from "../helpers/harness";

/**
 * The run-kind catalog and the `runs` table agree: a kind added to the catalog without its
 * migration would be refused by Postgres at its first insert, a 500 for its first client.
 */
describe("the kinds of run Postgres stores", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("runs_kind_check admits exactly the catalog's kinds", async () => {
    const [{ def }] = await h.deps.ds.query(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'runs_kind_check'`,
    );
    const admitted = [...String(def).matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    expect(admitted.length, def).to.be.above(0);
    expect([...admitted].sort()).to.deep.equal([...RUN_KINDS].sort());
  });
});
