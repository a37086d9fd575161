import { expect } from "chai";
import { statementBatch } from "../../shared/db/statement-batch";

describe("statementBatch (group commit of a hot-path write)", () => {
  it("sends the calls made in one round of I/O as one batch, each caller getting its own result", async () => {
    const batches: number[][] = [];
    const write = statementBatch<number, string>(
      async (items) => {
        batches.push([...items]);
        return items.map((n) => `row ${n}`);
      },
      async (n) => `alone ${n}`,
    );
    const results = await Promise.all([1, 2, 3].map((n) => write(n)));
    expect(batches).to.deep.equal([[1, 2, 3]]);
    expect(results).to.deep.equal(["row 1", "row 2", "row 3"]);
  });

  it("a call on its own is written alone, without waiting for company", async () => {
    const write = statementBatch<number, string>(
      async () => {
        throw new Error("a batch of one must not be sent as a batch");
      },
      async (n) => `alone ${n}`,
    );
    expect(await write(7)).to.equal("alone 7");
  });

  it("a failed batch is written again item by item: one item's error is its own, the others succeed", async () => {
    const alone: number[] = [];
    const write = statementBatch<number, string>(
      async () => {
        throw new Error("value out of range in one row");
      },
      async (n) => {
        alone.push(n);
        if (n === 2) throw new Error(`row ${n} refused`);
        return `alone ${n}`;
      },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => write(n)));
    expect(alone).to.have.members([1, 2, 3]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : r.reason.message))).to.deep.equal([
      "alone 1",
      "row 2 refused",
      "alone 3",
    ]);
  });

  it("calls made after a batch has left go in the next one", async () => {
    const batches: number[][] = [];
    const write = statementBatch<number, number>(
      async (items) => {
        batches.push([...items]);
        return [...items];
      },
      async (n) => {
        batches.push([n]);
        return n;
      },
    );
    await Promise.all([write(1), write(2)]);
    await Promise.all([write(3), write(4)]);
    expect(batches).to.deep.equal([
      [1, 2],
      [3, 4],
    ]);
  });

  it("when Postgres is unreachable every item gets that error, and nothing is written again row by row", async () => {
    const alone: number[] = [];
    const write = statementBatch<number, string>(
      async () => {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      },
      async (n) => {
        alone.push(n);
        return `alone ${n}`;
      },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => write(n)));
    expect(results.map((r) => r.status)).to.deep.equal(["rejected", "rejected", "rejected"]);
    expect(alone).to.deep.equal([]);
  });

  it("a row larger than a batch should carry is written on its own", async () => {
    const batches: string[][] = [];
    const write = statementBatch<string, string>(
      async (items) => {
        batches.push([...items]);
        return [...items];
      },
      async (item) => {
        batches.push([item.slice(0, 5)]);
        return item;
      },
      (item) => item.length,
    );
    await Promise.all([write("small 1"), write("large".padEnd(100_000, ".")), write("small 2")]);
    expect(batches).to.deep.equal([["large"], ["small 1", "small 2"]]);
  });
});
