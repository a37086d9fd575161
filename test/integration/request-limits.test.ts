import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { createApiApp } from "../../api/app";
import { createRateLimiter, type AccountLimits, type TierLimits } from "../../api/limits/rate-limiter";
import { createApiKey } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { serveApp } from "../helpers/platform-app";
import { sessionUser } from "../helpers/platform-fixtures";

const AGENT_COMPLETIONS = "/v1/agent/completions";
const AGENT_BATCH = "/v1/agent/batch/completions";
const SWARM_BATCH = "/v1/swarm/batch/completions";
const PREMIUM = { perMinute: 2_000, perHour: 10_000, perDay: 100_000, tokensPerAgent: 2_000_000 };

const agentItem = (task: string) => ({ agent_config: { agent_name: "Counter" }, task });
const swarmItem = (task: string) => ({
  swarm_type: "SequentialWorkflow",
  task,
  agents: [{ agent_name: "A" }, { agent_name: "B" }],
});

/**
 * Limits count work, not requests: a batch's items each count against the request windows, every
 * key of an account counts against the account's windows, an account holds a bounded number of
 * keys, and no run starts once the account's spend of the day reaches its ceiling.
 */
describe("request limits count work, per key and per account", function () {
  this.timeout(60_000);
  let h: Harness;
  const servers: { close(): Promise<void> }[] = [];

  before(async () => {
    h = await harness();
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  /** The API app with its own limiter (tiny limits), served on a free port. */
  async function serveWith(free: TierLimits, accounts?: Record<string, AccountLimits>): Promise<string> {
    const rateLimiter = createRateLimiter(h.deps.redis, {
      tiers: { free, premium: PREMIUM },
      accounts,
      prefix: `rl-test:${randomUUID()}`,
      timeoutMs: 1_000,
    });
    const served = await serveApp(createApiApp(h.deps, { bullBoard: false, rateLimiter }));
    servers.push(served);
    return served.url;
  }

  /** What the account has stored and queued, and the LLM calls made: a refused request changes none of it. */
  async function footprint(userId: string) {
    const [{ runs }] = await h.deps.ds.query("SELECT count(*)::int AS runs FROM runs WHERE user_id = $1", [userId]);
    const jobs = await Promise.all([
      h.deps.queues.shards[0].agent.getJobCounts(),
      h.deps.queues.shards[0].swarm.getJobCounts(),
    ]);
    return { runs, jobs, llmCalls: h.sim.journal.length };
  }

  describe("a batch of N items", () => {
    it("counts N in every window of the key, as GET /v1/rate/limits and the X-RateLimit-* headers show", async () => {
      const { key } = await h.newKey();
      const agents = await request(h.baseUrl, "POST", AGENT_BATCH, {
        key,
        body: [agentItem("one"), agentItem("two"), agentItem("three")],
      });
      expect(agents.status, JSON.stringify(agents.body)).to.equal(200);
      expect(agents.headers.get("x-ratelimit-remaining-minute")).to.equal(
        String(config.rateLimits.tiers.free.perMinute - 3),
      );
      const swarms = await request(h.baseUrl, "POST", SWARM_BATCH, { key, body: [swarmItem("one"), swarmItem("two")] });
      expect(swarms.status, JSON.stringify(swarms.body)).to.equal(200);
      expect(swarms.headers.get("x-ratelimit-remaining-day")).to.equal(String(config.rateLimits.tiers.free.perDay - 5));

      const limits = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
      for (const window of ["minute", "hour", "day"]) expect(limits.body.rate_limits[window].count, window).to.equal(6);
    });

    it("is refused whole with 429 when fewer than N remain, storing, queueing and calling nothing, and counting nothing", async () => {
      const url = await serveWith({ perMinute: 5, perHour: 50, perDay: 100, tokensPerAgent: 1 });
      const { key, userId } = await h.newKey();
      for (let i = 0; i < 3; i++) expect((await request(url, "GET", "/v1/rate/limits", { key })).status).to.equal(200);
      const before = await footprint(userId);

      // Two points are left in the minute; each of these carries three items. Spelling the path
      // another way the router accepts does not make a batch count as one request.
      const refusals = [
        await request(url, "POST", AGENT_BATCH, { key, body: [agentItem("a"), agentItem("b"), agentItem("c")] }),
        await request(url, "POST", SWARM_BATCH, { key, body: [swarmItem("a"), swarmItem("b"), swarmItem("c")] }),
        await request(url, "POST", `${AGENT_BATCH}/`, { key, body: [agentItem("a"), agentItem("b"), agentItem("c")] }),
        await request(url, "POST", AGENT_BATCH.toUpperCase().replace("/V1/", "/v1/"), {
          key,
          body: [agentItem("a"), agentItem("b"), agentItem("c")],
        }),
        await request(url, "POST", AGENT_BATCH, {
          key,
          headers: { prefer: "respond-async" },
          body: [agentItem("a"), agentItem("b"), agentItem("c")],
        }),
      ];
      for (const refused of refusals) {
        expect(refused.status, JSON.stringify(refused.body)).to.equal(429);
        expect(refused.body).to.include({ code: "RATE_LIMITED", status_code: 429 });
        expect(refused.body.detail).to.match(
          /^Rate limit exceeded: 5 requests per minute for the free tier; this request counts 3 \(one per batch item\) and 2 remain; retry in \d+ s$/,
        );
        expect(Number(refused.headers.get("retry-after"))).to.be.within(1, 60);
        expect(refused.headers.get("x-ratelimit-remaining-minute")).to.equal("2");
      }
      expect(await footprint(userId)).to.deep.equal(before);

      // The two points are still there: a batch of two fits, and then nothing is left.
      const fits = await request(url, "POST", AGENT_BATCH, { key, body: [agentItem("d"), agentItem("e")] });
      expect(fits.status, JSON.stringify(fits.body)).to.equal(200);
      expect(fits.headers.get("x-ratelimit-remaining-minute")).to.equal("0");
    });
  });

  describe("every key of an account", () => {
    it("counts against the account's windows (the tier's limits by default), so a second key does not get a second allowance", async () => {
      const url = await serveWith({ perMinute: 3, perHour: 50, perDay: 100, tokensPerAgent: 1 });
      const first = await h.newKey();
      const second = (await createApiKey(h.deps.ds, first.userId, "second")).key;
      expect((await request(url, "GET", "/v1/rate/limits", { key: first.key })).status).to.equal(200);
      expect((await request(url, "GET", "/v1/rate/limits", { key: first.key })).status).to.equal(200);

      const last = await request(url, "GET", "/v1/rate/limits", { key: second });
      expect(last.status).to.equal(200);
      // The second key has used one of its own three, but the account none of what is left.
      expect(last.body.rate_limits.minute).to.include({ count: 3, limit: 3, remaining: 0, exceeded: true });
      expect(last.headers.get("x-ratelimit-remaining-minute")).to.equal("0");

      const before = await footprint(first.userId);
      for (const key of [second, first.key]) {
        const refused = await request(url, "POST", AGENT_COMPLETIONS, { key, body: agentItem("never runs") });
        expect(refused.status).to.equal(429);
        expect(refused.body.detail).to.match(
          /^Rate limit exceeded: 3 requests per minute for (the free tier|all keys of the account together \(free tier\)); retry in \d+ s$/,
        );
      }
      const byAccount = await request(url, "GET", "/v1/jobs/" + randomUUID(), { key: second });
      expect(byAccount.status).to.equal(429);
      expect(byAccount.body.detail).to.match(/for all keys of the account together \(free tier\)/);
      expect(await footprint(first.userId)).to.deep.equal(before);

      const stranger = await h.newKey();
      expect(
        (await request(url, "GET", "/v1/rate/limits", { key: stranger.key })).status,
        "another account is not affected",
      ).to.equal(200);
    });

    it("counts a batch from one key against the account, refusing the other key's batch that no longer fits", async () => {
      const url = await serveWith(
        { perMinute: 100, perHour: 1_000, perDay: 1_200, tokensPerAgent: 1 },
        {
          free: { perMinute: 4, perHour: 1_000, perDay: 1_200, dailyTokens: 1e9, dailyCost: 1e6 },
        },
      );
      const first = await h.newKey();
      const second = (await createApiKey(h.deps.ds, first.userId, "second")).key;
      expect(
        (
          await request(url, "POST", AGENT_BATCH, {
            key: first.key,
            body: [agentItem("a"), agentItem("b"), agentItem("c")],
          })
        ).status,
      ).to.equal(200);
      const refused = await request(url, "POST", AGENT_BATCH, { key: second, body: [agentItem("d"), agentItem("e")] });
      expect(refused.status).to.equal(429);
      expect(refused.body.detail).to.match(
        /^Rate limit exceeded: 4 requests per minute for all keys of the account together \(free tier\); this request counts 2 \(one per batch item\) and 1 remain/,
      );
    });
  });

  describe("keys per account", () => {
    const form = (token: string, fields: Record<string, string>) => ({
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
      raw: new URLSearchParams(fields).toString(),
    });
    const activeKeys = async (userId: string) =>
      (
        await h.deps.ds.query("SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL", [
          userId,
        ])
      )[0].n as number;

    it(`are capped at MAX_KEYS_PER_ACCOUNT (${config.accountLimits.maxKeys}): the API-keys page refuses one more, until one is revoked`, async () => {
      const user = await sessionUser(h.deps.ds, "key-cap");
      const max = config.accountLimits.maxKeys;
      for (let i = 0; i < max; i++) {
        const created = await request(
          h.platformUrl,
          "POST",
          "/platform/api-keys",
          form(user.token, { name: `key ${i}` }),
        );
        expect(created.status, `key ${i}`).to.equal(201);
      }
      const refused = await request(
        h.platformUrl,
        "POST",
        "/platform/api-keys",
        form(user.token, { name: "one too many" }),
      );
      expect(refused.status).to.equal(409);
      expect(refused.headers.get("content-type")).to.match(/^text\/html/);
      expect(refused.body).to.include(
        `An account may have at most ${max} active API keys; revoke one to create another`,
      );
      expect(refused.body).not.to.match(/sk-[0-9a-f]{64}/);
      expect(await activeKeys(user.id)).to.equal(max);

      const [victim] = await h.deps.ds.query("SELECT id FROM api_keys WHERE user_id = $1 LIMIT 1", [user.id]);
      expect(
        (await request(h.platformUrl, "POST", `/platform/api-keys/${victim.id}/revoke`, form(user.token, {}))).status,
      ).to.equal(200);
      expect(
        (await request(h.platformUrl, "POST", "/platform/api-keys", form(user.token, { name: "replacement" }))).status,
      ).to.equal(201);
      expect(await activeKeys(user.id)).to.equal(max);
    });

    it("are capped under concurrent creation too: only the places left are taken", async () => {
      const user = await sessionUser(h.deps.ds, "key-race");
      const max = config.accountLimits.maxKeys;
      for (let i = 0; i < max - 2; i++) await createApiKey(h.deps.ds, user.id, `existing ${i}`);
      const statuses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          request(h.platformUrl, "POST", "/platform/api-keys", form(user.token, { name: `racer ${i}` })).then(
            (r) => r.status,
          ),
        ),
      );
      expect(statuses.filter((s) => s === 201)).to.have.length(2);
      expect(statuses.filter((s) => s === 409)).to.have.length(4);
      expect(await activeKeys(user.id)).to.equal(max);
    });
  });

  describe("an account's spend of the day", () => {
    it("once it reaches the daily token ceiling, refuses new runs with 429 naming the limit, while other requests go through", async () => {
      const url = await serveWith(
        { perMinute: 100, perHour: 1_000, perDay: 1_200, tokensPerAgent: 1 },
        {
          free: { perMinute: 100, perHour: 1_000, perDay: 1_200, dailyTokens: 1, dailyCost: 1e6 },
        },
      );
      const { key, userId } = await h.newKey();
      const spent = await request(url, "POST", AGENT_COMPLETIONS, { key, body: agentItem("spend a few tokens") });
      expect(spent.status, JSON.stringify(spent.body)).to.equal(200);
      expect(spent.body.usage.total_tokens).to.be.greaterThan(1);

      const before = await footprint(userId);
      const refusals = [
        await request(url, "POST", AGENT_COMPLETIONS, { key, body: agentItem("never runs") }),
        await request(url, "POST", AGENT_BATCH, { key, body: [agentItem("never runs")] }),
        await request(url, "POST", SWARM_BATCH, { key, body: [swarmItem("never runs")] }),
        await request(url, "POST", "/v1/swarm/completions", { key, body: swarmItem("never runs") }),
      ];
      const midnight = new Date();
      midnight.setUTCHours(24, 0, 0, 0);
      for (const refused of refusals) {
        expect(refused.status, JSON.stringify(refused.body)).to.equal(429);
        expect(refused.body).to.include({ code: "RATE_LIMITED", status_code: 429 });
        expect(refused.body.detail).to.match(
          new RegExp(
            `^Daily token limit reached: the account has used ${spent.body.usage.total_tokens} of the 1 tokens its runs may use per UTC day \\(free tier\\); no new run starts before midnight UTC; retry in \\d+ s$`,
          ),
        );
        expect(Number(refused.headers.get("retry-after"))).to.be.within(
          1,
          Math.ceil((midnight.getTime() - Date.now()) / 1_000) + 1,
        );
      }
      expect(await footprint(userId)).to.deep.equal(before);
      const limits = await request(url, "GET", "/v1/rate/limits", { key });
      expect(limits.status, "a request that starts no run still goes through").to.equal(200);
      expect(limits.body.rate_limits.minute.count, "the refused requests counted nothing").to.equal(2);
    });

    it("once it reaches the daily cost ceiling, refuses new runs naming that limit", async () => {
      const url = await serveWith(
        { perMinute: 100, perHour: 1_000, perDay: 1_200, tokensPerAgent: 1 },
        {
          free: { perMinute: 100, perHour: 1_000, perDay: 1_200, dailyTokens: 1e9, dailyCost: 0.000001 },
        },
      );
      const { key } = await h.newKey();
      expect(
        (await request(url, "POST", AGENT_COMPLETIONS, { key, body: agentItem("spend a little") })).status,
      ).to.equal(200);
      const refused = await request(url, "POST", AGENT_COMPLETIONS, { key, body: agentItem("never runs") });
      expect(refused.status).to.equal(429);
      expect(refused.body.detail).to.match(
        /^Daily cost limit reached: the account has spent \$0\.\d+ of the \$0\.000001 its runs may cost per UTC day \(free tier\)/,
      );
    });
  });
});
