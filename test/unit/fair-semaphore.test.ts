import { expect } from "chai";
import { FairSemaphore } from "../../shared/concurrency/fair-semaphore";

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("FairSemaphore (the per-process cap on LLM calls in flight)", () => {
  it("grants up to its limit at once, then serves one party's waiters in the order they asked", async () => {
    const s = new FairSemaphore(2);
    const a = await s.acquire("a");
    const b = await s.acquire("a");
    const granted: string[] = [];
    const waiters = ["c", "d", "e"].map((name) =>
      s.acquire("a").then((release) => {
        granted.push(name);
        return release;
      }),
    );
    await settle();
    expect(granted).to.deep.equal([]);
    expect([s.inUse, s.waiting]).to.deep.equal([2, 3]);
    a();
    await settle();
    expect(granted).to.deep.equal(["c"]);
    b();
    b(); // a second release of the same slot frees nothing more
    await settle();
    expect(granted).to.deep.equal(["c", "d"]);
    expect([s.inUse, s.waiting]).to.deep.equal([2, 1]);
    const [c, d] = await Promise.all([waiters[0], waiters[1]]);
    c();
    const e = await waiters[2];
    expect(granted).to.deep.equal(["c", "d", "e"]);
    d();
    e();
    expect([s.inUse, s.waiting]).to.deep.equal([0, 0]);
  });

  it("lets a waiter whose signal aborts leave the line at once, with the signal's reason, and skips it", async () => {
    const s = new FairSemaphore(1);
    const held = await s.acquire("a");
    const controller = new AbortController();
    const leaving = s.acquire("a", 1, controller.signal);
    const next = s.acquire("a");
    controller.abort(new Error("run cancelled"));
    let reason: unknown;
    await leaving.catch((err: unknown) => (reason = err));
    expect((reason as Error).message).to.equal("run cancelled");
    expect(s.waiting).to.equal(1);
    held();
    const release = await next;
    expect(s.inUse).to.equal(1);
    release();
    expect([s.inUse, s.waiting]).to.deep.equal([0, 0]);
  });

  it("refuses an already aborted signal without taking a slot, and a limit below 1", async () => {
    const s = new FairSemaphore(1);
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await s.acquire("a", 1, controller.signal).then(
      () => expect.fail("granted"),
      (err: Error) => expect(err.message).to.equal("gone"),
    );
    expect(s.inUse).to.equal(0);
    expect(() => new FairSemaphore(0)).to.throw(RangeError);
  });

  it("keeps order over a long line (thousands of waiters, compacted as it goes)", async () => {
    const s = new FairSemaphore(1);
    const first = await s.acquire("a");
    const order: number[] = [];
    const all = Array.from({ length: 5_000 }, (_, i) =>
      s.acquire("a").then((release) => {
        order.push(i);
        release();
      }),
    );
    first();
    await Promise.all(all);
    expect(order).to.deep.equal(Array.from({ length: 5_000 }, (_, i) => i));
    expect([s.inUse, s.waiting]).to.deep.equal([0, 0]);
  });

  /** Takes every slot, queues `waiters` as [party, weight] in that order, frees the slots one by one; the order served. */
  async function servedOrder(limit: number, waiters: [string, number][]): Promise<string[]> {
    const s = new FairSemaphore(limit);
    const held = await Promise.all(Array.from({ length: limit }, () => s.acquire("holder")));
    const order: string[] = [];
    const all = waiters.map(([party, weight]) =>
      s.acquire(party, weight).then((release) => {
        order.push(party);
        release();
      }),
    );
    for (const release of held) release();
    await Promise.all(all);
    expect([s.inUse, s.waiting]).to.deep.equal([0, 0]);
    return order;
  }

  it("serves the parties round-robin: a newcomer waits one turn, not behind another party's long line", async () => {
    const order = await servedOrder(1, [
      ...Array.from({ length: 100 }, (): [string, number] => ["big", 1]),
      ["small", 1],
    ]);
    expect(order.indexOf("small"), "the small party's place").to.equal(1);
    expect(order.filter((party) => party === "big")).to.have.length(100);
  });

  it("serves `weight` waiters of a party per turn", async () => {
    const order = await servedOrder(1, [
      ...Array.from({ length: 12 }, (): [string, number] => ["premium", 4]),
      ...Array.from({ length: 3 }, (): [string, number] => ["free", 1]),
    ]);
    expect(order.slice(0, 15).join(" ")).to.equal(
      "premium premium premium premium free premium premium premium premium free premium premium premium premium free",
    );
  });

  it("keeps each party's own order while interleaving them", async () => {
    const s = new FairSemaphore(1);
    const first = await s.acquire("holder");
    const order: string[] = [];
    const all = ["a", "b"].flatMap((party) =>
      Array.from({ length: 50 }, (_, i) =>
        s.acquire(party).then((release) => {
          order.push(`${party}${i}`);
          release();
        }),
      ),
    );
    first();
    await Promise.all(all);
    for (const party of ["a", "b"])
      expect(order.filter((name) => name.startsWith(party))).to.deep.equal(
        Array.from({ length: 50 }, (_, i) => `${party}${i}`),
      );
    expect(order.slice(0, 4)).to.deep.equal(["a0", "b0", "a1", "b1"]);
  });
});
