import { expect } from "chai";
import { createRateLimiter } from "../../api/limits/rate-limiter";
import type { RedisClient } from "../../shared/queues/redis";

const TIER = { perMinute: 100, perHour: 1_000, perDay: 10_000, tokensPerAgent: 1_000 };
/** The admission script's reply for an admitted request (counts 1, windows open for a minute). */
const ADMITTED = [1, 1, 1, 1, 1, 1, 1, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 0, 0];

/** A Redis that answers each admission check only when the test says so. */
function scriptedRedis() {
  const pending: ((reply: unknown) => void)[] = [];
  const client = {
    status: "ready",
    defineCommand(name: string) {
      (client as any)[name] = () => new Promise((resolve) => pending.push(resolve));
    },
  };
  return { redis: client as unknown as RedisClient, answer: (i: number) => pending[i](ADMITTED), pending };
}

const subject = (n: number) => ({ apiKeyId: `key-${n}`, userId: `user-${n}`, tier: "free" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settle = <T>(p: Promise<T>) =>
  p.then(
    () => "admitted",
    (err: Error) => err.message,
  );

describe("the rate limiter's Redis deadline (api/limits/redis-deadline.ts)", () => {
  it("refuses with 503 after one timeout when Redis answers nobody, on a process that keeps up", async () => {
    const { redis } = scriptedRedis();
    const limiter = createRateLimiter(redis, { tiers: { free: TIER }, prefix: "t", timeoutMs: 100 });
    const started = performance.now();
    expect(await settle(limiter.consume(subject(1)))).to.match(/Redis is not answering/);
    expect(performance.now() - started).to.be.below(400);
  });

  it("waits on while Redis answers other checks: the wait is the queue's, not a Redis outage", async () => {
    const { redis, answer, pending } = scriptedRedis();
    // Each answer lands in the middle of its 400 ms window, so a sleep running late on a busy
    // machine still leaves it in the right one.
    const limiter = createRateLimiter(redis, { tiers: { free: TIER }, prefix: "t", timeoutMs: 400 });
    const slow = settle(limiter.consume(subject(1)));
    const others = [2, 3, 4].map((n) => settle(limiter.consume(subject(n))));
    await sleep(200);
    answer(1); // Redis answers another check inside the first timeout...
    await sleep(400);
    answer(2); // ...and inside the second
    await sleep(400);
    answer(0); // the slow check's answer comes in the third timeout
    answer(3);
    expect(await slow).to.equal("admitted");
    expect(await Promise.all(others)).to.deep.equal(["admitted", "admitted", "admitted"]);
    expect(pending).to.have.length(4);
  });

  it("gives up after five timeouts in all, however busy Redis is with other checks", async () => {
    const { redis, answer } = scriptedRedis();
    const limiter = createRateLimiter(redis, { tiers: { free: TIER }, prefix: "t", timeoutMs: 100 });
    const started = performance.now();
    const stuck = settle(limiter.consume(subject(1)));
    let n = 0;
    const others = setInterval(() => {
      void settle(limiter.consume(subject(100 + n)));
      answer(++n);
    }, 10);
    try {
      expect(await stuck).to.match(/Redis is not answering/);
      expect(performance.now() - started).to.be.within(400, 1_500);
    } finally {
      clearInterval(others);
    }
  });
});
