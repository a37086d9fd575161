import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import { settleTurn, takeTurn } from "../../shared/llm/provider-limits/bucket-scripts";
import { providerKeyId } from "../../shared/llm/provider-limits/key-id";
import { ProviderLimiter, providerLimiter } from "../../shared/llm/provider-limits/provider-limiter";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { queueAgentRun } from "../helpers/queued-runs";
import { entriesMentioning } from "../helpers/swarm";

/** The key every test call goes out with (the simulator as the gateway, test/env.ts). */
const SIM_KEY = "simulator";
const GATEWAY = { provider: "gateway", apiKey: SIM_KEY };

/** Waits until every run has ended; their statuses. */
async function endings(h: Harness, ids: string[], timeoutMs = 60_000): Promise<string[]> {
  return eventually(
    async () => {
      const runs = await Promise.all(ids.map((id) => findRun(h.deps.ds, id)));
      const statuses = runs.map((run) => run?.status ?? "missing");
      return statuses.every((s) => ["succeeded", "failed", "cancelled"].includes(s)) ? statuses : undefined;
    },
    timeoutMs,
    50,
  );
}

/** Simulator statuses of the calls mentioning `marker`, in the order they came. */
const statusesOf = (h: Harness, marker: string): number[] => entriesMentioning(h, marker).map((e) => e.status);

describe("provider limits: calls wait their turn under a provider key's requests and tokens per window", function () {
  this.timeout(180_000);
  let h: Harness;
  let redis: RedisClient;
  before(async () => {
    h = await harness();
    redis = createRedis("request");
  });
  after(() => redis.quit());
  afterEach(async () => {
    h.sim.setRateLimit(SIM_KEY, null);
    providerLimiter.forgetLearned();
    await redis.del(ProviderLimiter.hashKey(providerKeyId(SIM_KEY)));
  });

  it("holds a burst beyond a configured limit to it: no 429, no failed run", async () => {
    // The provider allows 4 requests per 2 s, and so is the service told.
    h.sim.setRateLimit(SIM_KEY, { requests: 4, windowMs: 2_000 });
    providerLimiter.configure("gateway", { requests: 4, tokens: 0, windowMs: 2_000 });
    const { key } = await h.newKey();
    const marker = `burst-${Date.now()}`;
    const started = Date.now();
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await queueAgentRun(h, key, `${marker}-${i}`, 0));
    expect(await endings(h, ids)).to.deep.equal(Array(10).fill("succeeded"));
    expect(statusesOf(h, marker)).to.deep.equal(Array(10).fill(200));
    // 4 at once, then one every 500 ms: the last six waited 3 s for their windows.
    expect(Date.now() - started).to.be.at.least(2_900);
  });

  it("learns a key's limit from the provider's x-ratelimit headers: a later burst sees no 429", async () => {
    h.sim.setRateLimit(SIM_KEY, { requests: 4, windowMs: 2_000 });
    providerLimiter.configure("gateway", null);
    const { key } = await h.newKey();
    const first = `learn-first-${Date.now()}`;
    // One call teaches the limit (nothing configured: the first answer's headers are all there is).
    expect(await endings(h, [await queueAgentRun(h, key, first, 0)])).to.deep.equal(["succeeded"]);
    expect(statusesOf(h, first)).to.deep.equal([200]);
    const marker = `learn-burst-${Date.now()}`;
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await queueAgentRun(h, key, `${marker}-${i}`, 0));
    expect(await endings(h, ids)).to.deep.equal(Array(8).fill("succeeded"));
    expect(statusesOf(h, marker)).to.deep.equal(Array(8).fill(200));
  });

  it("pauses the key for every process when one is answered 429 with retry-after", async () => {
    h.sim.setRateLimit(SIM_KEY, { requests: 1_000 });
    const { key } = await h.newKey();
    expect(await endings(h, [await queueAgentRun(h, key, `pause-first-${Date.now()}`, 0)])).to.deep.equal([
      "succeeded",
    ]);
    // Another process (a limiter of its own, its own Redis connection) is refused with a 1.5 s pause,
    // within its cap on pauses (the tests' LLM_RETRY_MAX_DELAY_MS, 200 ms, would cut it short).
    const other = new ProviderLimiter(undefined, 2_000);
    try {
      const pausedAt = Date.now();
      other.observe(GATEWAY, 429, new Headers({ "retry-after-ms": "1500" }));
      // Its note reaches Redis before this process's next call asks.
      await eventually(
        async () => ((await redis.hget(ProviderLimiter.hashKey(providerKeyId(SIM_KEY)), "p")) ? true : undefined),
        5_000,
        5,
      );
      const marker = `paused-${Date.now()}`;
      await queueAgentRun(h, key, marker, 0);
      const sent = await eventually(async () => entriesMentioning(h, marker)[0], 10_000, 10);
      expect(Date.parse(sent.at) - pausedAt).to.be.at.least(1_400);
    } finally {
      await other.close();
    }
  });

  it("serves a small account's call within a turn of a big account's backlog waiting for the key", async () => {
    providerLimiter.configure("gateway", { requests: 2, tokens: 0, windowMs: 1_000 });
    const [big, small] = [await h.newKey(), await h.newKey()];
    const marker = `limit-fair-${Date.now()}`;
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await queueAgentRun(h, big.key, `${marker}-big-${i}`, 0));
    await eventually(async () => (entriesMentioning(h, `${marker}-big`).length >= 1 ? true : undefined), 20_000, 10);
    ids.push(await queueAgentRun(h, small.key, `${marker}-small`, 0));
    await endings(h, ids);
    const order = entriesMentioning(h, marker).map((e) =>
      JSON.stringify(e.body.messages).includes("-small") ? "S" : "B",
    );
    expect(order).to.have.length(11);
    // First come, first served would put it last, behind the whole backlog.
    expect(order.indexOf("S"), `calls in the order the provider got them: ${order.join("")}`).to.be.at.most(4);
  });

  it("lets a run cancelled while it waits for the key's window go at once, its call never sent", async () => {
    providerLimiter.configure("gateway", { requests: 1, tokens: 0, windowMs: 60_000 });
    const { key } = await h.newKey();
    const first = `abort-first-${Date.now()}`;
    expect(await endings(h, [await queueAgentRun(h, key, first, 0)])).to.deep.equal(["succeeded"]);
    const marker = `abort-wait-${Date.now()}`;
    const jobId = await queueAgentRun(h, key, marker, 0);
    await eventually(async () => ((await findRun(h.deps.ds, jobId))?.status === "running" ? true : undefined));
    const cancelledAt = Date.now();
    expect((await request(h.baseUrl, "DELETE", `/v1/jobs/${jobId}`, { key })).status).to.equal(200);
    expect(await endings(h, [jobId], 10_000)).to.deep.equal(["cancelled"]);
    expect(Date.now() - cancelledAt).to.be.lessThan(2_000);
    expect(entriesMentioning(h, marker)).to.have.length(0);
  });
});

describe("provider limits: the bucket in Redis", () => {
  let redis: RedisClient;
  const key = `{apiary-bucket-test}:provider-limit:${Date.now()}`;
  const now = 1_000_000;
  // ARGV: tokens, configured rpm, tpm, window ms, now.
  const take = (tokens: number, rpm: number, tpm: number, windowMs: number, at = now) =>
    takeTurn(redis, [key], [tokens, rpm, tpm, windowMs, at]) as Promise<number[]>;
  const unreported = ["", "", "", ""];
  before(() => (redis = createRedis("blocking")));
  afterEach(() => redis.del(key));
  after(() => redis.quit());

  it("lets a window go at once less a spare tenth, then one request per window / limit", async () => {
    for (let i = 0; i < 3; i++) expect((await take(1, 4, 0, 2_000))[0]).to.equal(0);
    // The fourth would leave no spare: it waits 200 ms, and refused it takes nothing.
    expect(await take(1, 4, 0, 2_000)).to.deep.equal([200, 1000, -1]);
    expect((await take(1, 4, 0, 2_000, now + 199))[0]).to.equal(1);
    expect((await take(1, 4, 0, 2_000, now + 200))[0]).to.equal(0);
  });

  it("counts tokens, and corrects them by the next turn's difference", async () => {
    expect((await take(600, 0, 1_000, 60_000))[0]).to.equal(0);
    // 1,200 of 1,000 tokens: the second waits until 59,000 ms of room hold 72,000 ms of debt.
    expect((await take(600, 0, 1_000, 60_000))[0]).to.equal(13_000);
    // The first call used 400 fewer than its estimate: given back with the next turn, it fits.
    expect((await take(600 - 400, 0, 1_000, 60_000))[0]).to.equal(0);
  });

  it("learns a limit, its window and its fill from a report, and pauses on a 429", async () => {
    // 10 per 2 s, 5 left, whole again in 1 s: as if 5 had just gone.
    await settleTurn(redis, [key], [0, 0, 60_000, 10, 5, 1_000, 2_000, ...unreported, 0, now]);
    expect(await take(1, 0, 0, 60_000)).to.deep.equal([0, 600, -1]);
    await settleTurn(redis, [key], [0, 0, 60_000, ...unreported, ...unreported, 1_500, now]);
    expect((await take(1, 0, 0, 60_000))[0]).to.equal(1_500);
    expect((await take(1, 0, 0, 60_000, now + 1_500))[0]).to.equal(0);
  });
});
