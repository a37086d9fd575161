import { expect } from "chai";
import { EventEmitter } from "node:events";
import { CompletionWaiter } from "../../shared/queues/completion-waiter";
import type { RedisClient } from "../../shared/queues/redis";
import { runDoneChannel } from "../../shared/queues/run-notices";

/** A subscriber connection that delivers what `notify` publishes, as Redis pub/sub would. */
async function fakeNotices(waiter: CompletionWaiter) {
  const subscriber = Object.assign(new EventEmitter(), { subscribe: async () => 1 });
  await waiter.listenForNotices(subscriber as unknown as RedisClient);
  return {
    notify: (id: string) => subscriber.emit("message", runDoneChannel(), JSON.stringify({ id })),
    other: (id: string) => subscriber.emit("message", "some-other-channel", JSON.stringify({ id })),
  };
}

describe("CompletionWaiter", () => {
  it("re-reads the source of truth when the run's notice arrives, not before", async () => {
    const waiter = new CompletionWaiter(60_000);
    const notices = await fakeNotices(waiter);
    let reads = 0;
    let done = false;
    const watch = waiter.watch("job-1");
    const result = watch.wait(async () => (++reads, done ? "row" : undefined), 10_000);
    notices.notify("other");
    notices.other("job-1");
    expect(reads).to.equal(0);
    done = true;
    notices.notify("job-1");
    expect(await result).to.equal("row");
    expect(reads).to.equal(1);
    watch.close();
    expect(waiter.size).to.equal(0);
  });

  it("does not miss a notice that came before wait() was called", async () => {
    const waiter = new CompletionWaiter(60_000);
    const notices = await fakeNotices(waiter);
    const watch = waiter.watch("job-2");
    notices.notify("job-2");
    expect(await watch.wait(async () => "row", 10_000)).to.equal("row");
    watch.close();
  });

  it("finds a finished job by polling when its notice is lost, and gives up at the deadline", async () => {
    const waiter = new CompletionWaiter(20);
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
    const waiter = new CompletionWaiter(10, 100);
    let reads = 0;
    const watches = Array.from({ length: 50 }, (_, i) => waiter.watch(`job-${i}`));
    await Promise.all(watches.map((w) => w.wait(async () => void reads++, 200)));
    watches.forEach((w) => w.close());
    // One read per waiter at its deadline; without the budget each would also have polled ~20 times.
    expect(reads).to.be.within(50, 100);
  });
});
