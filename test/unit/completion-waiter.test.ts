import { expect } from "chai";
import { EventEmitter } from "node:events";
import type { QueueEvents } from "bullmq";
import { CompletionWaiter } from "../../shared/queues/completion-waiter";

/** An event source with QueueEvents' `completed` event shape. */
function fakeEvents(): EventEmitter & QueueEvents {
  return new EventEmitter() as EventEmitter & QueueEvents;
}

describe("CompletionWaiter", () => {
  it("re-reads the source of truth when the job's event arrives, not before", async () => {
    const events = fakeEvents();
    const waiter = new CompletionWaiter([events], 60_000);
    let reads = 0;
    let done = false;
    const watch = waiter.watch("job-1");
    const result = watch.wait(async () => (++reads, done ? "row" : undefined), 10_000);
    events.emit("completed", { jobId: "other" });
    expect(reads).to.equal(0);
    done = true;
    events.emit("completed", { jobId: "job-1" });
    expect(await result).to.equal("row");
    expect(reads).to.equal(1);
    watch.close();
    expect(waiter.size).to.equal(0);
  });

  it("does not miss an event that came before wait() was called", async () => {
    const events = fakeEvents();
    const waiter = new CompletionWaiter([events], 60_000);
    const watch = waiter.watch("job-2");
    events.emit("failed", { jobId: "job-2" });
    expect(await watch.wait(async () => "row", 10_000)).to.equal("row");
    watch.close();
  });

  it("finds a finished job by polling when its event is lost, and gives up at the deadline", async () => {
    const waiter = new CompletionWaiter([fakeEvents()], 20);
    let reads = 0;
    const found = waiter.watch("job-3");
    expect(await found.wait(async () => (++reads >= 3 ? "row" : undefined), 5_000)).to.equal("row");
    found.close();
    const never = waiter.watch("job-4");
    expect(await never.wait(async () => undefined, 60)).to.equal(undefined);
    never.close();
  });

  it("spreads the polls of many waiters so together they stay within the read budget", async () => {
    // 50 waiters polling every 10 ms for 200 ms would read 1,000 times; the budget is 100 a second.
    const waiter = new CompletionWaiter([fakeEvents()], 10, 100);
    let reads = 0;
    const watches = Array.from({ length: 50 }, (_, i) => waiter.watch(`job-${i}`));
    await Promise.all(watches.map((w) => w.wait(async () => void reads++, 200)));
    watches.forEach((w) => w.close());
    // One read per waiter at its deadline; without the budget each would also have polled ~20 times.
    expect(reads).to.be.within(50, 100);
  });
});
