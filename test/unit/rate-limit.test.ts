import { expect } from "chai";
import { stat } from "node:fs";
import type { Redis } from "ioredis";
import { createRateLimiter, describeRefusal, rateLimitHeaders, type RateLimiter, type RateLimitOutcome, type TierLimits } from "../../api/services/rate-limiter";
import { loadConfig } from "../../shared/config";
import { AppError } from "../../shared/errors";

const FREE: TierLimits = { perMinute: 2, perHour: 5, perDay: 10, tokensPerAgent: 7 };
const PREMIUM: TierLimits = { perMinute: 20, perHour: 50, perDay: 100, tokensPerAgent: 70 };

/**
 * Just enough of an ioredis client for `RateLimiterRedis`: the fixed-window counter script
 * (`rlflxIncr`) and `multi().get().pttl().exec()`, with a clock the test does not need to move.
 */
class FakeRedis {
  status = "ready";
  counters = new Map<string, { value: number; expiresAt: number }>();
  calls = 0;
  hang = false;
  fail = false;
  /** Answers arrive as I/O (a file-system callback), like a socket read, not as a resolved promise. */
  answerAsIo = false;

  rlflxIncr(args: string[]): Promise<[number, number]> {
    this.calls++;
    if (this.hang) return new Promise(() => undefined);
    if (this.fail) return Promise.reject(new Error("Connection is closed."));
    if (this.answerAsIo) return new Promise((resolve) => stat(__filename, () => resolve(this.count(args))));
    return Promise.resolve(this.count(args));
  }

  private count([key, points, seconds]: string[]): [number, number] {
    const now = Date.now();
    let entry = this.counters.get(key);
    if (!entry || entry.expiresAt <= now) this.counters.set(key, (entry = { value: 0, expiresAt: now + Number(seconds) * 1_000 }));
    entry.value += Number(points);
    return [entry.value, entry.expiresAt - now];
  }

  multi() {
    const keys: string[] = [];
    const chain = {
      get: (key: string) => (keys.push(key), chain),
      pttl: () => chain,
      exec: async () => {
        const entry = this.counters.get(keys[0]);
        return [
          [null, entry ? String(entry.value) : null],
          [null, entry ? entry.expiresAt - Date.now() : -2],
        ];
      },
    };
    return chain;
  }
}

function limiterOn(fake: FakeRedis, timeoutMs = 200): RateLimiter {
  return createRateLimiter(fake as unknown as Redis, { tiers: { free: FREE, premium: PREMIUM }, prefix: "t", timeoutMs });
}

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a rejection");
}

describe("rate limiter", () => {
  it("counts one request in each of the minute, hour and day windows, with one command per window", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    const first = await limiter.consume("key-1", "free");
    expect(first.refusedBy).to.deep.equal([]);
    expect(fake.calls).to.equal(3);
    expect(first.state.tier).to.equal("free");
    expect(first.state.windows.minute).to.include({ count: 1, limit: 2, remaining: 1, exceeded: false });
    expect(first.state.windows.hour).to.include({ count: 1, limit: 5, remaining: 4 });
    expect(first.state.windows.day).to.include({ count: 1, limit: 10, remaining: 9 });
    expect(first.state.windows.minute.resetMs).to.be.within(59_000, 60_000);
    expect(first.state.windows.day.resetMs).to.be.within(86_399_000, 86_400_000);

    const second = await limiter.consume("key-1", "free");
    expect(second.state.windows.minute).to.include({ count: 2, remaining: 0, exceeded: true });
    expect(second.refusedBy).to.deep.equal([]);
  });

  it("refuses over a limit and hands back the other windows' point", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    await limiter.consume("key-1", "free");
    await limiter.consume("key-1", "free");
    const third = await limiter.consume("key-1", "free");
    expect(third.refusedBy).to.deep.equal(["minute"]);
    expect(third.state.windows.minute).to.include({ count: 3, remaining: 0, exceeded: true });
    expect(third.state.windows.hour).to.include({ count: 2, remaining: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.counters.get("t:hour:key-1")?.value).to.equal(2);
    expect(fake.counters.get("t:day:key-1")?.value).to.equal(2);
    expect(fake.counters.get("t:minute:key-1")?.value).to.equal(3);
  });

  it("applies the tier's limits, falling back to free for tiers it does not know", async () => {
    const limiter = limiterOn(new FakeRedis());
    expect((await limiter.consume("p", "premium")).state.windows.minute.limit).to.equal(20);
    const unknown = await limiter.consume("e", "enterprise");
    expect(unknown.state.tier).to.equal("free");
    expect(unknown.state.windows.minute.limit).to.equal(2);
    expect(limiter.limitsFor("premium")).to.deep.equal({ tier: "premium", limits: PREMIUM });
    expect(limiter.limitsFor("constructor").tier).to.equal("free");
  });

  it("peeks without counting", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    const empty = await limiter.peek("key-1", "free");
    expect(empty.windows.minute).to.include({ count: 0, remaining: 2, exceeded: false, resetMs: 60_000 });
    await limiter.consume("key-1", "free");
    const after = await limiter.peek("key-1", "free");
    expect(after.windows.day).to.include({ count: 1, remaining: 9 });
    expect(fake.counters.get("t:day:key-1")?.value).to.equal(1);
  });

  it("turns a hanging Redis into a 503 once the timeout passes", async () => {
    const fake = new FakeRedis();
    fake.hang = true;
    const started = Date.now();
    const err = await rejectionOf(limiterOn(fake, 50).consume("key-1", "free"));
    expect(Date.now() - started).to.be.within(40, 1_000);
    expect(err).to.be.instanceOf(AppError);
    expect(err).to.include({ status: 503, code: "SERVICE_UNAVAILABLE" });
  });

  it("takes an answer that arrived in time even when the process was too busy to read it before the deadline", async () => {
    const fake = new FakeRedis();
    fake.answerAsIo = true;
    const pending = limiterOn(fake, 50).consume("key-1", "free");
    while (fake.calls < 3) await new Promise((resolve) => setImmediate(resolve));
    // A burst of requests keeps the event loop busy past the deadline while the answers wait unread.
    const busyUntil = Date.now() + 150;
    while (Date.now() < busyUntil) Math.sqrt(busyUntil);
    const outcome = await pending;
    expect(outcome.refusedBy).to.deep.equal([]);
    expect(outcome.state.windows.minute.count).to.equal(1);
  });

  it("turns a Redis error or a client that is not connected into a 503 at once", async () => {
    const failing = new FakeRedis();
    failing.fail = true;
    expect(await rejectionOf(limiterOn(failing).consume("k", "free"))).to.include({ status: 503 });
    const disconnected = new FakeRedis();
    disconnected.status = "reconnecting";
    expect(await rejectionOf(limiterOn(disconnected).consume("k", "free"))).to.include({ status: 503 });
    expect(disconnected.calls).to.equal(0);
  });

  it("writes the X-RateLimit-* headers, Reset in seconds until the minute window resets", async () => {
    const { state } = await limiterOn(new FakeRedis()).consume("key-1", "free");
    const headers = rateLimitHeaders({ ...state, windows: { ...state.windows, minute: { ...state.windows.minute, resetMs: 41_200 } } });
    expect(headers).to.deep.equal({
      "X-RateLimit-Limit-Minute": "2",
      "X-RateLimit-Remaining-Minute": "1",
      "X-RateLimit-Limit-Hour": "5",
      "X-RateLimit-Remaining-Hour": "4",
      "X-RateLimit-Limit-Day": "10",
      "X-RateLimit-Remaining-Day": "9",
      "X-RateLimit-Reset": "42",
      "X-RateLimit-Tier": "free",
    });
  });

  it("names the refusing window that resets last, with Retry-After in whole seconds of at least 1", () => {
    const w = (limit: number, resetMs: number) => ({ count: limit + 1, limit, remaining: 0, exceeded: true, resetMs });
    const outcome: RateLimitOutcome = {
      state: { tier: "free", limits: FREE, windows: { minute: w(2, 30_500), hour: w(5, 1_800_000), day: w(10, 50_000_000) } },
      refusedBy: ["minute", "hour"],
    };
    expect(describeRefusal(outcome)).to.deep.equal({
      window: "hour",
      retryAfterS: 1_800,
      message: "Rate limit exceeded: 5 requests per hour for the free tier; retry in 1800 s",
    });
    const soon: RateLimitOutcome = { ...outcome, state: { ...outcome.state, windows: { ...outcome.state.windows, minute: w(2, 3) } }, refusedBy: ["minute"] };
    expect(describeRefusal(soon)).to.include({ window: "minute", retryAfterS: 1 });
    expect(describeRefusal(soon).message).to.match(/^Rate limit exceeded: 2 requests per minute/);
  });

  it("reads its limits from the configuration, with the documented defaults", () => {
    const cfg = loadConfig({});
    expect(cfg.rateLimits.tiers.free).to.deep.equal({ perMinute: 100, perHour: 1_000, perDay: 1_200, tokensPerAgent: 200_000 });
    expect(cfg.rateLimits.tiers.premium).to.deep.equal({ perMinute: 2_000, perHour: 10_000, perDay: 100_000, tokensPerAgent: 2_000_000 });
    const custom = loadConfig({ RATE_LIMIT_FREE_PER_MINUTE: "5", RATE_LIMIT_PREMIUM_PER_DAY: "9", RATE_LIMIT_PREMIUM_TOKENS_PER_AGENT: "3" });
    expect(custom.rateLimits.tiers.free.perMinute).to.equal(5);
    expect(custom.rateLimits.tiers.premium).to.include({ perDay: 9, tokensPerAgent: 3 });
    expect(() => loadConfig({ RATE_LIMIT_FREE_PER_HOUR: "0" })).to.throw(/RATE_LIMIT_FREE_PER_HOUR/);
  });
});
