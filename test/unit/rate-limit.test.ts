import { expect } from "chai";
import { stat } from "node:fs";
import type { Redis } from "ioredis";
import {
  createRateLimiter,
  type AccountLimits,
  type RateLimiter,
  type RateLimitOutcome,
  type RateSubject,
  type TierLimits,
  type WindowState,
} from "../../api/limits/rate-limiter";
import { describeRefusal, rateLimitHeaders } from "../../api/http/rate-limit-reply";
import { accountSpendKey } from "../../shared/limits/shared-spend";
import { utcDay } from "../../shared/limits/utc-day";
import { loadConfig } from "../../shared/config";
import { AppError } from "../../shared/errors";

const FREE: TierLimits = { perMinute: 2, perHour: 5, perDay: 10, tokensPerAgent: 7 };
const PREMIUM: TierLimits = { perMinute: 20, perHour: 50, perDay: 100, tokensPerAgent: 70 };

/**
 * Just enough of an ioredis client for the limiter: the admission script (`apiaryAdmit`, defined
 * with `defineCommand`) done the way the Lua does it, with a clock the test does not need to move.
 */
class FakeRedis {
  status = "ready";
  counters = new Map<string, { value: number; expiresAt: number }>();
  spend = new Map<string, { t: number; c: number }>();
  calls = 0;
  hang = false;
  fail = false;
  /** Answers arrive as I/O (a file-system callback), like a socket read, not as a resolved promise. */
  answerAsIo = false;

  defineCommand(): void {}

  apiaryAdmit(...params: (string | number)[]): Promise<(number | string)[]> {
    this.calls++;
    if (this.hang) return new Promise(() => undefined);
    if (this.fail) return Promise.reject(new Error("Connection is closed."));
    if (this.answerAsIo) return new Promise((resolve) => stat(__filename, () => resolve(this.admit(params))));
    return Promise.resolve(this.admit(params));
  }

  private admit(params: (string | number)[]): (number | string)[] {
    const keys = params.slice(1, 8).map(String);
    const [points, ...rest] = params.slice(8).map(Number);
    const [limits, windowsMs, [maxTokens, maxCost]] = [rest.slice(0, 6), rest.slice(6, 12), rest.slice(12)];
    const now = Date.now();
    const live = (key: string) => {
      const entry = this.counters.get(key);
      return entry && entry.expiresAt > now ? entry : undefined;
    };
    const counts = keys.slice(0, 6).map((key) => live(key)?.value ?? 0);
    const ttls = keys.slice(0, 6).map((key) => (live(key) ? live(key)!.expiresAt - now : -2));
    const spent = this.spend.get(keys[6]) ?? { t: 0, c: 0 };
    let admitted = counts.every((count, i) => count + points <= limits[i]);
    if (maxTokens >= 0 && (spent.t >= maxTokens || spent.c >= maxCost)) admitted = false;
    if (admitted && points > 0) {
      keys.slice(0, 6).forEach((key, i) => {
        const entry = live(key) ?? { value: 0, expiresAt: now + windowsMs[i] };
        entry.value += points;
        this.counters.set(key, entry);
        counts[i] = entry.value;
        ttls[i] = entry.expiresAt - now;
      });
    }
    return [admitted ? 1 : 0, ...counts, ...ttls, String(spent.t), String(spent.c)];
  }
}

function limiterOn(fake: FakeRedis, timeoutMs = 200, accounts?: Record<string, AccountLimits>): RateLimiter {
  return createRateLimiter(fake as unknown as Redis, {
    tiers: { free: FREE, premium: PREMIUM },
    accounts,
    prefix: "t",
    spendPrefix: "s",
    timeoutMs,
  });
}

/** A key of its own account, unless the account is given. */
const subject = (apiKeyId: string, tier = "free", userId = `user-of-${apiKeyId}`): RateSubject => ({
  apiKeyId,
  userId,
  tier,
});

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a rejection");
}

describe("rate limiter", () => {
  it("counts one request in each of the key's and the account's minute, hour and day windows, with one command", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    const first = await limiter.consume(subject("key-1"));
    expect(first.refusals).to.deep.equal([]);
    expect(fake.calls).to.equal(1);
    expect(first.state.tier).to.equal("free");
    expect(first.state.windows.minute).to.include({ count: 1, limit: 2, remaining: 1, exceeded: false });
    expect(first.state.windows.hour).to.include({ count: 1, limit: 5, remaining: 4 });
    expect(first.state.windows.day).to.include({ count: 1, limit: 10, remaining: 9 });
    expect(first.state.windows.minute.resetMs).to.be.within(59_000, 60_000);
    expect(first.state.windows.day.resetMs).to.be.within(86_399_000, 86_400_000);
    expect(fake.counters.get("t:account:day:user-of-key-1")?.value).to.equal(1);

    const second = await limiter.consume(subject("key-1"));
    expect(second.state.windows.minute).to.include({ count: 2, remaining: 0, exceeded: true });
    expect(second.refusals).to.deep.equal([]);
  });

  it("refuses over a limit counting nothing in any window", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    await limiter.consume(subject("key-1"));
    await limiter.consume(subject("key-1"));
    const third = await limiter.consume(subject("key-1"));
    expect(third.refusals.map((r) => r.reason === "window" && `${r.scope}:${r.window}`)).to.deep.equal([
      "key:minute",
      "account:minute",
    ]);
    expect(third.state.windows.minute).to.include({ count: 2, remaining: 0, exceeded: true });
    expect(third.state.windows.hour).to.include({ count: 2, remaining: 3 });
    for (const key of ["t:key:minute:key-1", "t:key:hour:key-1", "t:key:day:key-1", "t:account:hour:user-of-key-1"]) {
      expect(fake.counters.get(key)?.value, key).to.equal(2);
    }
  });

  it("counts a batch's points in every window at once, or refuses the whole batch when fewer remain", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    const openNewMinute = () =>
      ["t:key:minute:key-1", "t:account:minute:user-of-key-1"].forEach((key) => fake.counters.delete(key));
    const batch = await limiter.consume(subject("key-1"), { points: 2, startsRuns: true });
    expect(batch.refusals).to.deep.equal([]);
    expect(batch.state.windows.hour).to.include({ count: 2, remaining: 3 });
    expect(fake.counters.get("t:account:day:user-of-key-1")?.value).to.equal(2);
    openNewMinute();
    await limiter.consume(subject("key-1"), { points: 2, startsRuns: true });
    openNewMinute();
    // One point left in the hour: a batch of two is refused whole, and counts nothing.
    const tooBig = await limiter.consume(subject("key-1"), { points: 2, startsRuns: true });
    expect(tooBig.refusals.map((r) => r.reason === "window" && `${r.scope}:${r.window}`)).to.deep.equal([
      "key:hour",
      "account:hour",
    ]);
    expect(tooBig.state.windows.hour).to.include({ count: 4, remaining: 1 });
    expect(tooBig.state.windows.minute).to.include({ count: 0, remaining: 2 });
    expect(fake.counters.get("t:key:day:key-1")?.value).to.equal(4);
    // The point left is still there for a request that fits.
    expect((await limiter.consume(subject("key-1"), { points: 1, startsRuns: true })).refusals).to.deep.equal([]);
  });

  it("counts every key of an account in the account's windows, and reports whichever has less room", async () => {
    const fake = new FakeRedis();
    const accounts = { free: { perMinute: 3, perHour: 50, perDay: 100, dailyTokens: 1_000, dailyCost: 1 } };
    const limiter = limiterOn(fake, 200, accounts);
    const a = subject("key-a", "free", "user-1");
    const b = subject("key-b", "free", "user-1");
    await limiter.consume(a);
    await limiter.consume(a);
    const third = await limiter.consume(b);
    expect(third.refusals).to.deep.equal([]);
    expect(third.state.scopes.key.minute).to.include({ count: 1, limit: 2, remaining: 1 });
    expect(third.state.scopes.account.minute).to.include({ count: 3, limit: 3, remaining: 0 });
    expect(third.state.windows.minute, "the account's window binds").to.include({
      count: 3,
      limit: 3,
      remaining: 0,
      exceeded: true,
    });
    const fourth = await limiter.consume(b);
    expect(fourth.refusals).to.have.length(1);
    expect(fourth.refusals[0]).to.include({ reason: "window", scope: "account", window: "minute" });
    expect(describeRefusal(fourth).message).to.match(
      /^Rate limit exceeded: 3 requests per minute for all keys of the account together \(free tier\); retry in \d+ s$/,
    );
    const other = await limiter.consume(subject("key-c", "free", "user-2"));
    expect(other.refusals, "another account is not affected").to.deep.equal([]);
  });

  it("refuses a request that starts runs once the account's spend of the day reaches a ceiling, naming it", async () => {
    const fake = new FakeRedis();
    const accounts = { free: { perMinute: 10, perHour: 50, perDay: 100, dailyTokens: 1_000, dailyCost: 2 } };
    const limiter = limiterOn(fake, 200, accounts);
    const spendKey = accountSpendKey("user-1", utcDay(new Date()), "s");
    fake.spend.set(spendKey, { t: 999, c: 0.5 });
    expect(
      (await limiter.consume(subject("k", "free", "user-1"), { points: 1, startsRuns: true })).refusals,
    ).to.deep.equal([]);
    fake.spend.set(spendKey, { t: 1_000, c: 0.5 });
    const tokens = await limiter.consume(subject("k", "free", "user-1"), { points: 1, startsRuns: true });
    expect(tokens.refusals).to.deep.equal([
      {
        reason: "spend",
        measure: "tokens",
        spent: 1_000,
        ceiling: 1_000,
        resetMs: (tokens.refusals[0] as any).resetMs,
      },
    ]);
    const refusal = describeRefusal(tokens);
    expect(refusal.message).to.match(
      /^Daily token limit reached: the account has used 1000 of the 1000 tokens its runs may use per UTC day \(free tier\)/,
    );
    expect(refusal.retryAfterS).to.be.within(1, 86_400);
    expect(tokens.state.windows.minute.count, "nothing counted").to.equal(1);
    fake.spend.set(spendKey, { t: 10, c: 2 });
    const cost = await limiter.consume(subject("k", "free", "user-1"), { points: 1, startsRuns: true });
    expect(describeRefusal(cost).message).to.match(/^Daily cost limit reached: the account has spent \$2 of the \$2/);
    // Requests that start no run (reading a job, the limits) still go through.
    expect((await limiter.consume(subject("k", "free", "user-1"))).refusals).to.deep.equal([]);
  });

  it("applies the tier's limits, falling back to free for tiers it does not know", async () => {
    const limiter = limiterOn(new FakeRedis());
    expect((await limiter.consume(subject("p", "premium"))).state.windows.minute.limit).to.equal(20);
    const unknown = await limiter.consume(subject("e", "enterprise"));
    expect(unknown.state.tier).to.equal("free");
    expect(unknown.state.windows.minute.limit).to.equal(2);
    expect(limiter.limitsFor("premium")).to.deep.include({ tier: "premium", limits: PREMIUM });
    expect(limiter.limitsFor("premium").account).to.include({
      perMinute: 20,
      perHour: 50,
      perDay: 100,
      dailyTokens: Infinity,
    });
    expect(limiter.limitsFor("constructor").tier).to.equal("free");
  });

  it("peeks without counting", async () => {
    const fake = new FakeRedis();
    const limiter = limiterOn(fake);
    const empty = await limiter.peek(subject("key-1"));
    expect(empty.windows.minute).to.include({ count: 0, remaining: 2, exceeded: false, resetMs: 60_000 });
    await limiter.consume(subject("key-1"));
    const after = await limiter.peek(subject("key-1"));
    expect(after.windows.day).to.include({ count: 1, remaining: 9 });
    expect(fake.counters.get("t:key:day:key-1")?.value).to.equal(1);
  });

  it("turns a hanging Redis into a 503 once the timeout passes", async () => {
    const fake = new FakeRedis();
    fake.hang = true;
    const started = Date.now();
    const err = await rejectionOf(limiterOn(fake, 50).consume(subject("key-1")));
    expect(Date.now() - started).to.be.within(40, 1_000);
    expect(err).to.be.instanceOf(AppError);
    expect(err).to.include({ status: 503, code: "SERVICE_UNAVAILABLE" });
  });

  it("takes an answer that arrived in time even when the process was too busy to read it before the deadline", async () => {
    const fake = new FakeRedis();
    fake.answerAsIo = true;
    const pending = limiterOn(fake, 50).consume(subject("key-1"));
    while (fake.calls < 1) await new Promise((resolve) => setImmediate(resolve));
    // A burst of requests keeps the event loop busy past the deadline while the answers wait unread.
    const busyUntil = Date.now() + 150;
    while (Date.now() < busyUntil) Math.sqrt(busyUntil);
    const outcome = await pending;
    expect(outcome.refusals).to.deep.equal([]);
    expect(outcome.state.windows.minute.count).to.equal(1);
  });

  it("turns a Redis error or a client that is not connected into a 503 at once", async () => {
    const failing = new FakeRedis();
    failing.fail = true;
    expect(await rejectionOf(limiterOn(failing).consume(subject("k")))).to.include({ status: 503 });
    const disconnected = new FakeRedis();
    disconnected.status = "reconnecting";
    expect(await rejectionOf(limiterOn(disconnected).consume(subject("k")))).to.include({ status: 503 });
    expect(disconnected.calls).to.equal(0);
  });

  it("writes the X-RateLimit-* headers, Reset in seconds until the minute window resets", async () => {
    const { state } = await limiterOn(new FakeRedis()).consume(subject("key-1"));
    const headers = rateLimitHeaders({
      ...state,
      windows: { ...state.windows, minute: { ...state.windows.minute, resetMs: 41_200 } },
    });
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

  it("names the refusal that clears last, with Retry-After in whole seconds of at least 1", () => {
    const w = (limit: number, resetMs: number): WindowState => ({
      count: limit,
      limit,
      remaining: 0,
      exceeded: true,
      resetMs,
    });
    const windows = { minute: w(2, 30_500), hour: w(5, 1_800_000), day: w(10, 50_000_000) };
    const state = { tier: "free", limits: FREE, windows, scopes: { key: windows, account: windows } };
    const outcome: RateLimitOutcome = {
      state,
      refusals: [
        { reason: "window", scope: "key", window: "minute", points: 1, state: windows.minute },
        { reason: "window", scope: "key", window: "hour", points: 1, state: windows.hour },
      ],
    };
    expect(describeRefusal(outcome)).to.deep.include({
      retryAfterS: 1_800,
      message: "Rate limit exceeded: 5 requests per hour for the free tier; retry in 1800 s",
    });
    const soon: RateLimitOutcome = {
      state,
      refusals: [{ reason: "window", scope: "key", window: "minute", points: 1, state: w(2, 3) }],
    };
    expect(describeRefusal(soon)).to.include({ retryAfterS: 1 });
    expect(describeRefusal(soon).message).to.match(/^Rate limit exceeded: 2 requests per minute/);
    const batch: RateLimitOutcome = {
      state,
      refusals: [
        {
          reason: "window",
          scope: "key",
          window: "hour",
          points: 4,
          state: { ...w(5, 60_000), count: 2, remaining: 3, exceeded: false },
        },
      ],
    };
    expect(describeRefusal(batch).message).to.equal(
      "Rate limit exceeded: 5 requests per hour for the free tier; this request counts 4 (one per batch item) and 3 remain; retry in 60 s",
    );
    const never: RateLimitOutcome = {
      state,
      refusals: [
        {
          reason: "window",
          scope: "key",
          window: "minute",
          points: 7,
          state: { ...w(2, 60_000), count: 0, remaining: 2, exceeded: false },
        },
      ],
    };
    expect(describeRefusal(never).message).to.match(
      /counts 7 \(one per batch item\), more than the window ever allows: send fewer items at once/,
    );
  });

  it("reads its limits from the configuration, with the documented defaults", () => {
    const cfg = loadConfig({});
    expect(cfg.rateLimits.tiers.free).to.deep.equal({
      perMinute: 100,
      perHour: 1_000,
      perDay: 1_200,
      tokensPerAgent: 200_000,
    });
    expect(cfg.rateLimits.tiers.premium).to.deep.equal({
      perMinute: 2_000,
      perHour: 10_000,
      perDay: 100_000,
      tokensPerAgent: 2_000_000,
    });
    const custom = loadConfig({
      RATE_LIMIT_FREE_PER_MINUTE: "5",
      RATE_LIMIT_PREMIUM_PER_DAY: "9",
      RATE_LIMIT_PREMIUM_TOKENS_PER_AGENT: "3",
    });
    expect(custom.rateLimits.tiers.free.perMinute).to.equal(5);
    expect(custom.rateLimits.tiers.premium).to.include({ perDay: 9, tokensPerAgent: 3 });
    expect(() => loadConfig({ RATE_LIMIT_FREE_PER_HOUR: "0" })).to.throw(/RATE_LIMIT_FREE_PER_HOUR/);
  });

  it("gives accounts the key limits unless set, a daily spend ceiling per tier and a cap on keys", () => {
    const cfg = loadConfig({ RATE_LIMIT_FREE_PER_MINUTE: "5" });
    expect(cfg.accountLimits).to.deep.equal({
      maxKeys: 10,
      tiers: {
        free: { perMinute: 5, perHour: 1_000, perDay: 1_200, dailyTokens: 10_000_000, dailyCost: 100 },
        premium: { perMinute: 2_000, perHour: 10_000, perDay: 100_000, dailyTokens: 500_000_000, dailyCost: 5_000 },
      },
    });
    const custom = loadConfig({
      RATE_LIMIT_ACCOUNT_FREE_PER_MINUTE: "7",
      ACCOUNT_DAILY_TOKENS_PREMIUM: "9",
      ACCOUNT_DAILY_COST_FREE: "1.5",
      MAX_KEYS_PER_ACCOUNT: "3",
    });
    expect(custom.accountLimits.maxKeys).to.equal(3);
    expect(custom.accountLimits.tiers.free).to.include({ perMinute: 7, dailyCost: 1.5 });
    expect(custom.accountLimits.tiers.premium.dailyTokens).to.equal(9);
    expect(() => loadConfig({ MAX_KEYS_PER_ACCOUNT: "0" })).to.throw(/MAX_KEYS_PER_ACCOUNT/);
    expect(() => loadConfig({ RATE_LIMIT_ACCOUNT_PREMIUM_PER_DAY: "-1" })).to.throw(
      /RATE_LIMIT_ACCOUNT_PREMIUM_PER_DAY/,
    );
  });
});
