import { randomUUID } from "node:crypto";
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { createApiApp } from "../../api/app";
import { createRateLimiter, type RateLimiter, type TierLimits } from "../../api/limits/rate-limiter";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { createKey } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { serveApp } from "../helpers/platform-app";

const FREE = { perMinute: 100, perHour: 1_000, perDay: 1_200, tokensPerAgent: 200_000 };
const PREMIUM = { perMinute: 2_000, perHour: 10_000, perDay: 100_000, tokensPerAgent: 2_000_000 };

/** The whole API app with its own rate limiter, served on a free port. */
async function serveWith(h: Harness, rateLimiter: RateLimiter): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const served = await serveApp(createApiApp(h.deps, { bullBoard: false, rateLimiter }));
  return { baseUrl: served.url, close: served.close };
}

function tinyLimiter(h: Harness, free: TierLimits, redis: RedisClient = h.deps.redis, timeoutMs = 1_000): RateLimiter {
  return createRateLimiter(redis, { tiers: { free, premium: PREMIUM }, prefix: `rl-test:${randomUUID()}`, timeoutMs });
}

function limitHeaders(headers: Headers) {
  const pick = (name: string) => headers.get(`x-ratelimit-${name}`);
  return {
    limitMinute: pick("limit-minute"),
    remainingMinute: pick("remaining-minute"),
    limitDay: pick("limit-day"),
    remainingDay: pick("remaining-day"),
    reset: pick("reset"),
    tier: pick("tier"),
  };
}

describe("rate limits", () => {
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  describe("with the configured limits", () => {
    it("sets the X-RateLimit-* headers on every authenticated /v1 response, errors included, counting down", async () => {
      const { key } = await h.newKey();
      const first = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(first.status).to.equal(200);
      expect(limitHeaders(first.headers)).to.deep.include({
        limitMinute: "100",
        remainingMinute: "99",
        limitDay: "1200",
        remainingDay: "1199",
        tier: "free",
      });
      const reset = Number(first.headers.get("x-ratelimit-reset"));
      expect(reset).to.be.within(1, 60);

      const notFound = await request(h.baseUrl, "GET", `/v1/jobs/${randomUUID()}`, { key });
      expect(notFound.status).to.equal(404);
      expect(limitHeaders(notFound.headers)).to.deep.include({
        remainingMinute: "98",
        remainingDay: "1198",
        tier: "free",
      });

      const invalid = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: { max_loops: 0 } },
      });
      expect(invalid.status).to.be.oneOf([400, 422]);
      expect(limitHeaders(invalid.headers)).to.deep.include({ remainingMinute: "97", remainingDay: "1197" });
      expect(invalid.headers.get("x-ratelimit-limit-hour")).to.equal("1000");
      expect(invalid.headers.get("x-ratelimit-remaining-hour")).to.equal("997");

      // Unauthenticated answers carry none: there is no key to count against.
      const anonymous = await request(h.baseUrl, "GET", "/v1/rate/limits");
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers.get("x-ratelimit-limit-minute")).to.equal(null);
    });

    it("GET /v1/rate/limits reports the tier's limits and the counts, this request included, without counting twice", async () => {
      const { key } = await h.newKey();
      await request(h.baseUrl, "GET", `/v1/jobs/${randomUUID()}`, { key });
      const before = Date.now();
      const res = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(body).to.have.all.keys("success", "tier", "timestamp", "limits", "rate_limits");
      expect(body).to.include({ success: true, tier: "free" });
      expect(new Date(body.timestamp).toISOString()).to.equal(body.timestamp);
      expect(body.limits).to.deep.equal({
        maximum_requests_per_minute: FREE.perMinute,
        maximum_requests_per_hour: FREE.perHour,
        maximum_requests_per_day: FREE.perDay,
        tokens_per_agent: FREE.tokensPerAgent,
      });
      expect(body.rate_limits).to.have.all.keys("minute", "hour", "day");
      const windows = {
        minute: [FREE.perMinute, 60],
        hour: [FREE.perHour, 3_600],
        day: [FREE.perDay, 86_400],
      } as const;
      for (const [name, [limit, seconds]] of Object.entries(windows)) {
        const w = body.rate_limits[name];
        expect(w, name).to.have.all.keys("count", "limit", "remaining", "exceeded", "reset_time");
        expect(w, name).to.include({ count: 2, limit, remaining: limit - 2, exceeded: false });
        const resetAt = Date.parse(w.reset_time);
        expect(new Date(resetAt).toISOString()).to.equal(w.reset_time);
        expect(resetAt, name).to.be.within(before, Date.now() + seconds * 1_000);
      }

      const again = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(again.body.rate_limits.minute).to.include({ count: 3, remaining: FREE.perMinute - 3 });
      expect(again.headers.get("x-ratelimit-remaining-minute")).to.equal(String(FREE.perMinute - 3));
    });

    it("gives premium keys the premium limits", async () => {
      const { key } = await createKey(h.deps.ds, { name: "premium", tier: "premium" });
      const res = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(res.status).to.equal(200);
      expect(res.body.tier).to.equal("premium");
      expect(res.body.limits).to.include({
        maximum_requests_per_minute: 2_000,
        maximum_requests_per_hour: 10_000,
        maximum_requests_per_day: 100_000,
        tokens_per_agent: 2_000_000,
      });
      expect(limitHeaders(res.headers)).to.deep.include({
        limitMinute: "2000",
        remainingMinute: "1999",
        limitDay: "100000",
        remainingDay: "99999",
        tier: "premium",
      });
    });

    it("keeps the counters per key", async () => {
      const [a, b] = [await h.newKey(), await h.newKey()];
      await request(h.baseUrl, "GET", "/v1/rate/limits", { key: a.key });
      await request(h.baseUrl, "GET", "/v1/rate/limits", { key: a.key });
      const other = await request(h.baseUrl, "GET", "/v1/rate/limits", { key: b.key });
      expect(other.body.rate_limits.minute.count).to.equal(1);
    });
  });

  describe("with small limits", () => {
    const servers: { close(): Promise<void> }[] = [];
    after(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    it("refuses the request over the per-minute limit with 429, Retry-After and the contract's body", async () => {
      const app = await serveWith(h, tinyLimiter(h, { perMinute: 3, perHour: 50, perDay: 100, tokensPerAgent: 1 }));
      servers.push(app);
      const { key } = await h.newKey();
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const ok = await request(app.baseUrl, "GET", "/v1/rate/limits", { key });
        expect(ok.status).to.equal(200);
        remaining.push(ok.headers.get("x-ratelimit-remaining-minute")!);
      }
      expect(remaining).to.deep.equal(["2", "1", "0"]);

      const refused = await request(app.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(refused.status).to.equal(429);
      expect(refused.body).to.include({ code: "RATE_LIMITED", status_code: 429 });
      expect(refused.body.detail).to.match(/^Rate limit exceeded: 3 requests per minute/);
      const retryAfter = refused.headers.get("retry-after")!;
      expect(retryAfter).to.match(/^\d+$/);
      expect(Number(retryAfter)).to.be.within(1, 60);
      expect(limitHeaders(refused.headers)).to.deep.include({
        limitMinute: "3",
        remainingMinute: "0",
        limitDay: "100",
        tier: "free",
      });
      // The refused request does not use up the hour and day allowances.
      expect(refused.headers.get("x-ratelimit-remaining-day")).to.equal("97");

      // POSTs are refused before anything runs.
      const journalBefore = h.sim.journal.length;
      const post = await request(app.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: {}, task: "never runs" },
      });
      expect(post.status).to.equal(429);
      expect(h.sim.journal.length).to.equal(journalBefore);

      const day = await request(app.baseUrl, "GET", "/v1/rate/limits", { key: (await h.newKey()).key });
      expect(day.status, "another key is not affected").to.equal(200);
    });

    it("agent and swarm completions learn their verdict alongside the run's insert: a refusal leaves no run, no job, no prompt, and outranks a 422", async () => {
      const app = await serveWith(h, tinyLimiter(h, { perMinute: 1, perHour: 50, perDay: 100, tokensPerAgent: 1 }));
      servers.push(app);
      const { key, userId } = await h.newKey();
      expect((await request(app.baseUrl, "GET", "/v1/rate/limits", { key })).status).to.equal(200);
      const journalBefore = h.sim.journal.length;
      const jobsBefore = await h.deps.queues.shards[0].agent.getJobCounts();
      const publishing = {
        agent_name: "Refused",
        description: "Reviews supplier contracts",
        system_prompt: "You review supplier contracts and list every risky clause.",
        publish_to_marketplace: true,
        use_cases: [{ title: "Contracts", description: "Reviews supplier contracts" }],
        tags: ["legal"],
        category: "analysis",
      };

      const agentRun = await request(app.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: { agent_name: "A" }, task: "never runs" },
      });
      const publishingAgentRun = await request(app.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: publishing, task: "never runs" },
      });
      const swarmRun = await request(app.baseUrl, "POST", "/v1/swarm/completions", {
        key,
        body: {
          swarm_type: "SequentialWorkflow",
          task: "never runs",
          agents: [
            { agent_name: "A", system_prompt: "a" },
            { agent_name: "B", system_prompt: "b" },
          ],
        },
      });
      const invalid = await request(app.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: { max_loops: "many" }, task: 7 },
      });

      for (const refused of [agentRun, publishingAgentRun, swarmRun, invalid]) {
        expect(refused.status).to.equal(429);
        expect(refused.body).to.include({ code: "RATE_LIMITED", status_code: 429 });
        expect(refused.headers.get("retry-after")).to.match(/^\d+$/);
        expect(refused.headers.get("x-ratelimit-remaining-minute")).to.equal("0");
      }
      const [{ runs }] = await h.deps.ds.query("SELECT count(*)::int AS runs FROM runs WHERE user_id = $1", [userId]);
      const [{ prompts }] = await h.deps.ds.query("SELECT count(*)::int AS prompts FROM prompts WHERE user_id = $1", [
        userId,
      ]);
      expect({ runs, prompts }).to.deep.equal({ runs: 0, prompts: 0 });
      expect(await h.deps.queues.shards[0].agent.getJobCounts()).to.deep.equal(jobsBefore);
      expect(h.sim.journal.length, "no LLM call").to.equal(journalBefore);
    });

    it("refuses over the per-day limit naming the day window, with a Retry-After up to a day", async () => {
      const app = await serveWith(h, tinyLimiter(h, { perMinute: 10, perHour: 10, perDay: 2, tokensPerAgent: 1 }));
      servers.push(app);
      const { key } = await h.newKey();
      expect((await request(app.baseUrl, "GET", "/v1/rate/limits", { key })).status).to.equal(200);
      const last = await request(app.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(last.status).to.equal(200);
      expect(last.body.rate_limits.day).to.include({ count: 2, remaining: 0, exceeded: true });
      const refused = await request(app.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(refused.status).to.equal(429);
      expect(refused.body.detail).to.match(/2 requests per day/);
      expect(Number(refused.headers.get("retry-after"))).to.be.within(86_000, 86_400);
      expect(refused.headers.get("x-ratelimit-remaining-minute")).to.equal("8");
    });

    it("answers 503 at once, never hanging, when the limiter's Redis is unreachable", async () => {
      // A port that was just free and is closed again: connections are refused.
      const probe = createTcpServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const deadRedis = createRedis("request", `redis://127.0.0.1:${port}/0`);
      const app = await serveWith(h, tinyLimiter(h, FREE, deadRedis));
      servers.push({ close: async () => (deadRedis.disconnect(), app.close()) });

      const { key } = await h.newKey();
      const started = Date.now();
      const res = await request(app.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(Date.now() - started).to.be.below(1_000);
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ code: "SERVICE_UNAVAILABLE", status_code: 503 });
      expect(res.body.detail).to.match(/rate limit/i);
      expect(res.headers.get("x-ratelimit-limit-minute")).to.equal("100");
      expect(res.headers.get("x-ratelimit-tier")).to.equal("free");

      // The agent completion learns the verdict alongside its insert: the 503 still comes, and leaves no run behind.
      const { key: runKey, userId } = await h.newKey();
      const run = await request(app.baseUrl, "POST", "/v1/agent/completions", {
        key: runKey,
        body: { agent_config: { agent_name: "A" }, task: "never runs" },
      });
      expect(run.status).to.equal(503);
      expect(run.body.detail).to.match(/rate limit/i);
      const [{ runs }] = await h.deps.ds.query("SELECT count(*)::int AS runs FROM runs WHERE user_id = $1", [userId]);
      expect(runs).to.equal(0);
    });

    it("counts a request whose answer came while the process was busy for longer than the timeout", async () => {
      const limiter = tinyLimiter(h, FREE, h.deps.redis, 100);
      const { keyId, userId } = await h.newKey();
      const pending = limiter.consume({ apiKeyId: keyId, userId, tier: "free" });
      await new Promise((resolve) => setImmediate(resolve)); // the command is on its way to Redis
      // CPU-bound work (a large body being validated) keeps the loop from reading the answer in time.
      const busyUntil = Date.now() + 300;
      while (Date.now() < busyUntil);
      const outcome = await pending;
      expect(outcome.refusals).to.deep.equal([]);
      expect(outcome.state.windows.minute.count).to.equal(1);
    });

    it("answers 503 within the timeout when Redis accepts connections but never answers", async () => {
      const sockets = new Set<Socket>();
      const silent = createTcpServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const port = (silent.address() as AddressInfo).port;
      const mute = createRedis("request", `redis://127.0.0.1:${port}/0`);
      const app = await serveWith(h, tinyLimiter(h, FREE, mute, 300));
      servers.push({
        close: async () => {
          mute.disconnect();
          for (const s of sockets) s.destroy();
          await app.close();
          await new Promise((resolve) => silent.close(resolve));
        },
      });

      const { key } = await h.newKey();
      const started = Date.now();
      const res = await request(app.baseUrl, "GET", `/v1/jobs/${randomUUID()}`, { key });
      expect(Date.now() - started).to.be.below(2_000);
      expect(res.status).to.equal(503);
      expect(res.body.code).to.equal("SERVICE_UNAVAILABLE");
    });
  });
});
