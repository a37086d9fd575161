import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { createApiApp } from "../../api/app";
import { OpenRequests } from "../../api/limits/open-requests";
import { createRateLimiter } from "../../api/limits/rate-limiter";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { serveApp, type ServedApp } from "../helpers/platform-app";
import { answerWhileBodyWithheld } from "../helpers/withheld-body";

const AGENT_COMPLETIONS = "/v1/agent/completions";
const FREE = { perMinute: 50, perHour: 1_000, perDay: 1_000, tokensPerAgent: 1_000 };

/** An agent run whose one LLM call takes `latencyMs`. */
const agentBody = (task: string, latencyMs = 10) => ({
  agent_config: { agent_name: "Admitted", max_loops: 1, llm_args: { sim_latency_ms: latencyMs } },
  task,
});

/**
 * One Redis script admits a request: the key's and the account's open-request caps (for a request
 * that streams or waits), then their rate-limit windows and the account's spend. A refused request
 * takes and counts nothing, and a full cap's refusal outranks the windows'.
 */
describe("admission: open-request caps and rate limits decided together", function () {
  this.timeout(60_000);
  let h: Harness;
  let served: ServedApp;
  const rlPrefix = `admission-rl:${randomUUID()}`;
  const openPrefix = `admission-open:${randomUUID()}`;
  const waits: AbortController[] = [];

  before(async () => {
    h = await harness();
    const rateLimiter = createRateLimiter(h.deps.redis, { tiers: { free: FREE }, prefix: rlPrefix, timeoutMs: 2_000 });
    const openRequests = new OpenRequests(h.deps.redis, {
      tiers: { free: { perKey: 1, perAccount: 5 } },
      prefix: openPrefix,
    });
    served = await serveApp(createApiApp(h.deps, { bullBoard: false, rateLimiter, openRequests }));
  });

  afterEach(() => {
    for (const wait of waits.splice(0)) wait.abort();
  });

  after(async () => {
    await served.close();
  });

  /** Leases held in the key's and the account's sets. */
  const leases = async (owner: { keyId: string; userId: string }) => [
    await h.deps.redis.zcard(`${openPrefix}:key:${owner.keyId}`),
    await h.deps.redis.zcard(`${openPrefix}:account:${owner.userId}`),
  ];

  /** Uses up the key's minute window in Redis, unseen by the web process (which would otherwise refuse the key before any check). */
  const useUpMinute = (keyId: string) =>
    h.deps.redis.set(`${rlPrefix}:key:minute:${keyId}`, FREE.perMinute, "PX", 60_000);

  /** Holds the key's one slot with a synchronous wait on a slow run, until the test ends. */
  async function holdSlot(owner: { key: string; keyId: string; userId: string }): Promise<void> {
    const abort = new AbortController();
    waits.push(abort);
    fetch(`${served.url}${AGENT_COMPLETIONS}`, {
      method: "POST",
      headers: { "x-api-key": owner.key, "content-type": "application/json" },
      body: JSON.stringify(agentBody("holder", 15_000)),
      signal: abort.signal,
    }).catch(() => undefined);
    await eventually(async () => ((await leases(owner))[0] === 1 ? true : undefined), 10_000);
  }

  it("takes no slot for requests the rate limit refuses: a burst of them all get the rate limit's 429, none the cap's, and leave no lease", async () => {
    const owner = await h.newKey();
    await useUpMinute(owner.keyId);
    // Arriving together, before any verdict: each would hold the key's one slot until its own
    // verdict if the slot were taken before the rate limit decided, refusing its neighbours.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(served.url, "POST", AGENT_COMPLETIONS, { key: owner.key, body: agentBody(`refused-${i}`) }),
      ),
    );
    for (const res of answers) {
      expect(res.status).to.equal(429);
      expect(res.body.detail).to.match(/^Rate limit exceeded: 50 requests per minute/);
    }
    expect(await leases(owner)).to.deep.equal([0, 0]);
  });

  it("counts no window for a request the cap refuses", async () => {
    const owner = await h.newKey();
    await holdSlot(owner);
    for (let i = 0; i < 3; i++) {
      const refused = await request(served.url, "POST", AGENT_COMPLETIONS, {
        key: owner.key,
        body: agentBody(`capped-${i}`),
      });
      expect(refused.status).to.equal(429);
      expect(refused.body.detail).to.match(/^Too many open requests: at most 1 /);
    }
    // The wait and this read are all that counted.
    const read = await request(served.url, "GET", "/v1/rate/limits", { key: owner.key });
    expect(read.headers.get("x-ratelimit-remaining-minute")).to.equal(String(FREE.perMinute - 2));
    expect(await leases(owner)).to.deep.equal([1, 1]);
  });

  it("answers the cap's 429 when the cap and a window would both refuse; paths without a cap get the window's", async () => {
    const owner = await h.newKey();
    await holdSlot(owner);
    await useUpMinute(owner.keyId);
    const capped = await request(served.url, "POST", AGENT_COMPLETIONS, { key: owner.key, body: agentBody("both") });
    expect(capped.status).to.equal(429);
    expect(capped.body).to.deep.include({ code: "RATE_LIMITED", status_code: 429 });
    expect(capped.body.detail).to.equal(
      "Too many open requests: at most 1 streaming responses and synchronous run requests still waiting per API key (free tier); wait for one to end, send with Prefer: respond-async, or retry in 2 s",
    );
    expect(capped.headers.get("retry-after")).to.equal("2");
    expect(capped.headers.get("x-ratelimit-limit-minute")).to.equal(String(FREE.perMinute));
    expect(capped.headers.get("x-ratelimit-tier")).to.equal("free");
    // The cap counted nothing, so its answer says nothing of the windows' counts.
    expect(capped.headers.get("x-ratelimit-remaining-minute")).to.equal(null);

    const asyncRun = await request(served.url, "POST", AGENT_COMPLETIONS, {
      key: owner.key,
      headers: { prefer: "respond-async" },
      body: agentBody("async"),
    });
    expect(asyncRun.status).to.equal(429);
    expect(asyncRun.body.detail).to.match(/^Rate limit exceeded: 50 requests per minute for the free tier/);
    expect(asyncRun.headers.get("x-ratelimit-remaining-minute")).to.equal("0");
  });

  it("refuses a large body on a full cap before reading it", async () => {
    const owner = await h.newKey();
    await holdSlot(owner);
    const res = await answerWhileBodyWithheld(served.url, {
      path: AGENT_COMPLETIONS,
      headers: { "content-type": "application/json", "x-api-key": owner.key },
      declaredBytes: 2 * 1024 * 1024,
      firstBytes: `{"task": "${"x".repeat(1_024)}`,
    });
    expect(res.status).to.equal(429);
    expect(res.json().detail).to.match(/^Too many open requests: at most 1 /);
    const read = await request(served.url, "GET", "/v1/rate/limits", { key: owner.key });
    expect(read.headers.get("x-ratelimit-remaining-minute")).to.equal(String(FREE.perMinute - 2));
  });

  it("holds a large body's slot while its run waits, and frees each slot as its answer ends", async () => {
    const owner = await h.newKey();
    const slow = agentBody("large", 1_500);
    const large = { ...slow, agent_config: { ...slow.agent_config, system_prompt: "x".repeat(80_000) } };
    const answered = request(served.url, "POST", AGENT_COMPLETIONS, { key: owner.key, body: large });
    await eventually(async () => ((await leases(owner))[0] === 1 ? true : undefined), 10_000);
    const refused = await request(served.url, "POST", AGENT_COMPLETIONS, { key: owner.key, body: agentBody("small") });
    expect(refused.status).to.equal(429);
    expect(refused.body.detail).to.match(/^Too many open requests: at most 1 /);
    expect((await answered).status).to.equal(200);
    // Released as the answer ended; the release is not awaited, so it may land just after.
    await eventually(async () => ((await leases(owner)).every((n) => n === 0) ? true : undefined), 5_000);
    const small = await request(served.url, "POST", AGENT_COMPLETIONS, { key: owner.key, body: agentBody("small") });
    expect(small.status, JSON.stringify(small.body)).to.equal(200);
    // The large body's point, counted before it was read, is not counted again after: three in all with this read.
    const read = await request(served.url, "GET", "/v1/rate/limits", { key: owner.key });
    expect(read.headers.get("x-ratelimit-remaining-minute")).to.equal(String(FREE.perMinute - 3));
  });
});
