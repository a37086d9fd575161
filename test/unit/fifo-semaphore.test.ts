import { expect } from "chai";
import { FifoSemaphore } from "../../shared/concurrency/fifo-semaphore";

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("FifoSemaphore (the per-process cap on LLM calls in flight)", () => {
  it("grants up to its limit at once, then serves waiters in the order they asked", async () => {
    const s = new FifoSemaphore(2);
    const a = await s.acquire();
    const b = await s.acquire();
    const granted: string[] = [];
    const waiters = ["c", "d", "e"].map((name) =>
      s.acquire().then((release) => {
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
    const s = new FifoSemaphore(1);
    const held = await s.acquire();
    const controller = new AbortController();
    const leaving = s.acquire(controller.signal);
    const next = s.acquire();
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
    const s = new FifoSemaphore(1);
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await s.acquire(controller.signal).then(
      () => expect.fail("granted"),
      (err: Error) => expect(err.message).to.equal("gone"),
    );
    expect(s.inUse).to.equal(0);
    expect(() => new FifoSemaphore(0)).to.throw(RangeError);
  });

  it("keeps order over a long line (thousands of waiters, compacted as it goes)", async () => {
    const s = new FifoSemaphore(1);
    const first = await s.acquire();
    const order: number[] = [];
    const all = Array.from({ length: 5_000 }, (_, i) =>
      s.acquire().then((release) => {
        order.push(i);
        release();
      }),
    );
    first();
    await Promise.all(all);
    expect(order).to.deep.equal(Array.from({ length: 5_000 }, (_, i) => i));
    expect([s.inUse, s.waiting]).to.deep.equal([0, 0]);
  });
});
