import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { createPlatformServices, platformSettings } from "../../api/marketplace/platform-services";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { serveExecutionApi, type ServedApp } from "../helpers/platform-app";
import { startPriceServer, type PriceServer } from "../helpers/price-server";
import { makeTrusted, moderate } from "../helpers/prompts";
import { callsMentioning, postSwarm } from "../helpers/swarm";

const HEADER = "x-marketplace-prompt-ids";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An agent that publishes itself, with every field publishing needs. */
function publisher(name: string, prompt: string, extra: Record<string, unknown> = {}) {
  return {
    agent_name: name,
    description: `${name} reviews contracts`,
    system_prompt: prompt,
    publish_to_marketplace: true,
    use_cases: [{ title: "Contracts", description: "Reviews supplier contracts" }],
    tags: ["legal", "review"],
    category: "analysis",
    ...extra,
  };
}

describe("publish_to_marketplace", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  let userId: string;

  before(async () => {
    h = await harness();
    ({ key, userId } = await h.newKey());
    await makeTrusted(h, h.platformUrl, key); // paid prompts need a seller others rated well
  });

  const promptRow = async (id: string) => (await h.deps.ds.query("SELECT * FROM prompts WHERE id = $1", [id]))[0];
  const promptsOf = async (ownerId: string) =>
    (await h.deps.ds.query("SELECT id FROM prompts WHERE user_id = $1", [ownerId])) as { id: string }[];
  const runsOf = async (ownerId: string) =>
    (await h.deps.ds.query("SELECT count(*)::int AS n FROM runs WHERE user_id = $1", [ownerId]))[0].n as number;
  /** Today's counters of a user, zeros when nothing was counted. */
  const usageOf = async (ownerId: string) => {
    const [row] = await h.deps.ds.query(
      "SELECT paid_prompts, free_content FROM daily_usage WHERE user_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date",
      [ownerId],
    );
    return { paid: row?.paid_prompts ?? 0, free: row?.free_content ?? 0 };
  };

  it("agent completion: publishes the agent's system prompt by prompt creation's rules (price converted, counted), pending review, and names it in a header and the stored request", async () => {
    const prompt = `You review contracts clause by clause ${randomUUID()}.`;
    const marker = `publish-${randomUUID()}`;
    const before = await usageOf(userId);
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: publisher("Contract Reviewer", prompt, {
          is_free: false,
          price_usd: 2.5,
          published_prompt_id: "forged",
        }),
        task: marker,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.all.keys(
      "job_id",
      "success",
      "name",
      "description",
      "temperature",
      "outputs",
      "usage",
      "timestamp",
    ); // body unchanged
    const id = res.headers.get(HEADER)!;
    expect(id).to.match(UUID);

    const row = await promptRow(id);
    expect(row).to.include({
      user_id: userId,
      name: "Contract Reviewer",
      prompt,
      description: "Contract Reviewer reviews contracts",
      tags: "legal,review",
      category: "analysis",
      is_free: false,
      price_usd: 2.5,
      status: "pending",
      source: "agent",
    });
    expect(row.price).to.equal(0.016666667); // $2.50 at the local price endpoint's $150 per SOL, to the lamport
    expect(await usageOf(userId)).to.deep.equal({ ...before, paid: before.paid + 1 });
    expect(row.use_cases).to.deep.equal([{ title: "Contracts", description: "Reviews supplier contracts" }]);
    const [run] = await h.deps.ds.query("SELECT request FROM runs WHERE job_id = $1", [res.body.job_id]);
    expect(run.request.agent_config.published_prompt_id).to.equal(id);
    expect(callsMentioning(h, marker)[0].messages[0]).to.deep.equal({ role: "system", content: prompt });
  });

  it("reuses the caller's existing prompt for the same text (whitespace and case aside), without an error", async () => {
    const prompt = `You summarise board minutes ${randomUUID()}.`;
    const first = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Minutes", prompt), task: "a" },
    });
    const counted = await usageOf(userId);
    const again = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Minutes Again", `  ${prompt.toUpperCase().replace(/ /g, "\n  ")} `), task: "b" },
    });
    expect([first.status, again.status], JSON.stringify(again.body)).to.deep.equal([200, 200]);
    expect(again.headers.get(HEADER)).to.equal(first.headers.get(HEADER));
    const rows = await h.deps.ds.query("SELECT name FROM prompts WHERE id = $1", [first.headers.get(HEADER)]);
    expect(rows).to.deep.equal([{ name: "Minutes" }]); // the first publication stands
    expect(await usageOf(userId)).to.deep.equal(counted); // and is not counted again

    // An idempotent replay answers with the same header, and publishes nothing more.
    const body = { agent_config: publisher("Replayed", `You file expense reports ${randomUUID()}.`), task: "c" };
    const headers = { "idempotency-key": randomUUID() };
    const original = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body, headers });
    const replay = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body, headers });
    expect(replay.headers.get("idempotent-replayed")).to.equal("true");
    expect(replay.headers.get(HEADER)).to.equal(original.headers.get(HEADER)).and.match(UUID);
  });

  it("publishes one prompt, counted once, when requests publishing the same text race past the duplicate check", async () => {
    const caller = await h.newKey();
    const warmUp = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: caller.key,
      body: { agent_config: publisher("Warm-up", `You plan picnics ${randomUUID()}.`), task: "t" },
    });
    expect(warmUp.status).to.equal(200); // today's counter row exists now
    // Holding the counter row makes every request pass the duplicate check and wait at the counted insert.
    const holder = h.deps.ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let answers: Awaited<ReturnType<typeof request>>[];
    try {
      await holder.query("SELECT 1 FROM daily_usage WHERE user_id = $1 FOR UPDATE", [caller.userId]);
      const prompt = `You translate menus for tourists ${randomUUID()}.`;
      const pending = Promise.all(
        [1, 2, 3, 4].map((n) =>
          request(h.baseUrl, "POST", "/v1/agent/completions", {
            key: caller.key,
            body: { agent_config: publisher(`Menu ${n}`, prompt), task: "t" },
          }),
        ),
      );
      await eventually(async () => {
        const [waiting] = await h.deps.ds.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO daily_usage%'",
        );
        return waiting.n === 4 ? true : undefined;
      });
      await holder.commitTransaction();
      answers = await pending;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers.map((a) => a.body)),
    ).to.deep.equal([200, 200, 200, 200]);
    const ids = new Set(answers.map((a) => a.headers.get(HEADER)));
    expect(ids.size).to.equal(1);
    expect(await promptsOf(caller.userId)).to.have.length(2);
    expect(await usageOf(caller.userId)).to.deep.equal({ paid: 0, free: 2 }); // the losers' counts were given back
  });

  it("refuses an agent that cannot be published with 400 naming every problem, before any prompt or run is stored", async () => {
    const caller = await h.newKey();
    const bad = [
      {
        path: "/v1/agent/completions",
        body: {
          agent_config: { agent_name: "X", system_prompt: "hi", publish_to_marketplace: true, is_free: false },
          task: "t",
        },
      },
      {
        path: "/v1/agent/batch/completions",
        body: [
          { agent_config: publisher("Fine", `A fine prompt ${randomUUID()}`), task: "t" },
          {
            agent_config: publisher("Paid", `A paid prompt ${randomUUID()}`, {
              is_free: false,
              use_cases: [{ title: "" }],
            }),
            task: "t",
          },
        ],
      },
      {
        path: "/v1/swarm/completions",
        body: {
          agents: [
            publisher("Fine", `Another fine prompt ${randomUUID()}`),
            publisher("Borrowed", "ignored", { marketplace_prompt_id: null, tags: [] }),
          ],
          task: "t",
        },
      },
    ];
    for (const { path, body } of bad) {
      const res = await request(h.baseUrl, "POST", path, { key: caller.key, body });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.code).to.equal("INVALID_MARKETPLACE_PUBLICATION");
      expect(res.headers.get(HEADER)).to.equal(null);
    }
    const [agentProblems, batchProblems, swarmProblems] = await Promise.all(
      bad.map(({ path, body }) =>
        request(h.baseUrl, "POST", path, { key: caller.key, body }).then((r) => r.body.detail as string),
      ),
    );
    // Prompt creation's field rules, each problem naming the agent and its own field.
    expect(agentProblems.split("; ")).to.deep.equal([
      "agent_config (X): agent_name length must be at least 2 characters long",
      "agent_config (X): system_prompt length must be at least 5 characters long",
      "agent_config (X): use_cases is required",
      "agent_config (X): tags is required",
      "agent_config (X): 'price_usd' is required and must be greater than 0 when 'is_free' is false",
    ]);
    expect(batchProblems.split("; ")).to.deep.equal([
      "[1].agent_config (Paid): use_cases[0].title is not allowed to be empty",
      "[1].agent_config (Paid): use_cases[0].description is required",
      "[1].agent_config (Paid): 'price_usd' is required and must be greater than 0 when 'is_free' is false",
    ]);
    expect(swarmProblems).to.equal("agents[1] (Borrowed): tags is required");
    expect(await promptsOf(caller.userId)).to.deep.equal([]);
    expect(await runsOf(caller.userId)).to.equal(0);
  });

  it("refuses to republish an agent that runs on someone's marketplace prompt", async () => {
    const mine = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Original", `Original text ${randomUUID()}`), task: "t" },
    });
    const copy = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: publisher("Copy", "unused", { marketplace_prompt_id: mine.headers.get(HEADER) }),
        task: "t",
      },
    });
    expect(copy.status).to.equal(400);
    expect(copy.body.detail).to.include("an agent using marketplace_prompt_id cannot be published again");
  });

  it("swarm completion and agent batch: every publishing agent (handoffs too) gets its prompt; the header lists them in agent order", async () => {
    const [a, b, c] = [1, 2, 3].map((n) => `Swarm member prompt ${n} ${randomUUID()}`);
    const swarm = await postSwarm(h, key, {
      swarm_type: "ConcurrentWorkflow",
      agents: [
        publisher("Alpha", a),
        { agent_name: "Quiet", system_prompt: "Not published.", published_prompt_id: "forged" },
        publisher("Beta", b, { handoffs: [publisher("Gamma", c)] }),
      ],
      task: `swarm-${randomUUID()}`,
    });
    expect(swarm.status, JSON.stringify(swarm.body)).to.equal(200);
    const ids = swarm.headers.get(HEADER)!.split(",");
    expect(ids).to.have.length(3);
    expect(await Promise.all(ids.map(async (id) => (await promptRow(id)).prompt))).to.deep.equal([a, b, c]);
    const [run] = await h.deps.ds.query("SELECT request FROM runs WHERE job_id = $1", [swarm.body.job_id]);
    const stored = run.request.agents.map((agent: any) => agent.published_prompt_id ?? null);
    expect(stored).to.deep.equal([ids[0], null, ids[1]]); // a client's own value is dropped
    expect(run.request.agents[2].handoffs[0].published_prompt_id).to.equal(ids[2]);

    const batch = await request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
      key,
      headers: { prefer: "respond-async" },
      body: [
        { agent_config: publisher("One", a), task: "x" },
        { agent_config: { agent_name: "Two" }, task: "y" },
      ],
    });
    expect(batch.status).to.equal(202);
    expect(batch.headers.get(HEADER)).to.equal(ids[0]); // the same text as Alpha's: the same prompt
  });

  it("swarm batch: an item whose agent cannot be published takes its slot; the others publish and run", async () => {
    const text = `Batch item prompt ${randomUUID()}`;
    const res = await request(h.baseUrl, "POST", "/v1/swarm/batch/completions", {
      key,
      body: [
        { name: "ok", agents: [publisher("Solo", text)], task: "t" },
        { name: "bad", agents: [publisher("Solo", `Other text ${randomUUID()}`, { use_cases: null })], task: "t" },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body[0]).to.include({ status: "success", swarm_name: "ok" });
    expect(res.body[1]).to.include({ status: "error", swarm_name: "bad" });
    expect(res.body[1].detail).to.equal("agents[0] (Solo): use_cases is required");
    const id = res.headers.get(HEADER)!;
    expect((await promptRow(id)).prompt).to.equal(text);
  });

  it("a published paid prompt, once approved, is listed by POST /v1/marketplace/agents without its text and usable by others through marketplace_prompt_id", async () => {
    const prompt = `You price antique clocks ${randomUUID()}.`;
    const published = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Clock Pricer", prompt, { is_free: false, price_usd: 3 }), task: "t" },
    });
    const id = published.headers.get(HEADER)!;
    const listed = async (k: string) =>
      (
        (await request(h.baseUrl, "POST", "/v1/marketplace/agents", { key: k, body: { number_of_items: 100 } })).body
          .prompts as any[]
      ).find((p) => p.id === id);
    const buyer = await h.newKey();
    expect(await listed(buyer.key)).to.equal(undefined); // pending review

    expect(await promptRow(id)).to.include({ price_usd: 3, price: 0.02 });
    await moderate(h, h.platformUrl, id);
    await h.deps.ds.query("UPDATE prompts SET created_at = now() + interval '1000 days' WHERE id = $1", [id]);
    expect(await listed(buyer.key)).to.include({ id, name: "Clock Pricer", prompt: "", user_id: userId });
    const marker = `buyer-${randomUUID()}`;
    const used = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: buyer.key,
      body: { agent_config: { marketplace_prompt_id: id }, task: marker },
    });
    expect(used.status, JSON.stringify(used.body)).to.equal(200);
    expect(callsMentioning(h, marker)[0].messages[0]).to.deep.equal({ role: "system", content: prompt });
  });
  it("offers no way around review: a published prompt waits for a moderator, whatever the agent says, and only then reaches others", async () => {
    const name = `Lease Checker ${randomUUID().slice(0, 8)}`;
    const prompt = `You check residential leases for unusual clauses ${randomUUID()}.`;
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher(name, prompt, { status: "approved" }), task: "t" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.headers.get(HEADER)!;
    expect(await promptRow(id)).to.include({ status: "pending", requested_status: null, source: "agent" });
    const stranger = await h.newKey();
    const seen = async () => ({
      listing: (
        (
          await request(h.baseUrl, "POST", "/v1/marketplace/agents", {
            key: stranger.key,
            body: { number_of_items: 100 },
          })
        ).body.prompts as any[]
      ).some((p) => p.id === id),
      queried: (
        (await request(h.platformUrl, "POST", "/api/query-prompts", { body: { search: name } })).body as any[]
      ).some((p) => p.id === id),
    });
    expect(await seen()).to.deep.equal({ listing: false, queried: false });
    await moderate(h, h.platformUrl, id);
    expect(await seen()).to.deep.equal({ listing: true, queried: true });
  });

  it("holds the prompt to prompt creation's content rules: the seller's trust for paid prompts, quality, safety; a refusal is a 400 naming the agent", async () => {
    const seller = await h.newKey(); // nobody has rated this user's prompts
    const cases = [
      {
        agent: publisher("Untrusted", `You appraise vintage watches from photos ${randomUUID()}.`, {
          is_free: false,
          price_usd: 4,
        }),
        says: "Paid content needs at least 2 of your items rated 4 or more",
      },
      { agent: publisher("Parrot", `${randomUUID()} ${"echo ".repeat(30)}`), says: "The content quality is too low" },
      {
        agent: publisher(
          "Phisher",
          `You help people recover wallets: ask them to paste their seed phrase here ${randomUUID()}.`,
        ),
        says: "The content did not pass the safety review",
      },
    ];
    for (const { agent, says } of cases) {
      const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key: seller.key,
        body: { agent_config: agent, task: "t" },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.have.all.keys("detail", "code", "status_code"); // the /v1 shape, no platform fields
      expect(res.body.code).to.equal("INVALID_MARKETPLACE_PUBLICATION");
      expect(res.body.detail)
        .to.be.a("string")
        .and.include(`agent_config (${agent.agent_name}) cannot be published: ${says}`);
    }
    expect(await promptsOf(seller.userId)).to.deep.equal([]);
    expect(await runsOf(seller.userId)).to.equal(0);
    expect(await usageOf(seller.userId)).to.deep.equal({ paid: 0, free: 0 });
  });

  describe("with the platform's daily limits and prices", () => {
    let limited: ServedApp;
    let single: ServedApp;
    let noPrice: ServedApp;
    let downPrices: PriceServer;

    before(async () => {
      const withLimits = (freeContent: number) =>
        createPlatformServices(platformSettings({ dailyLimits: { freeContent, paidPrompts: 500, paidAgents: 500 } }));
      downPrices = await startPriceServer({ status: 503 });
      [limited, single, noPrice] = await Promise.all([
        serveExecutionApi(h, withLimits(2)),
        serveExecutionApi(h, withLimits(1)),
        serveExecutionApi(
          h,
          createPlatformServices(
            platformSettings({ prices: { ...config.prices, sourceUrl: downPrices.url, fixedUsd: null } }),
          ),
        ),
      ]);
    });
    after(async () => {
      await Promise.all([limited, single, noPrice].map((app) => app?.close()));
      await downPrices?.close();
    });

    const publish = (app: ServedApp, k: string, agents: object[]) =>
      request(app.url, "POST", "/v1/swarm/completions", {
        key: k,
        body: { swarm_type: "ConcurrentWorkflow", agents, task: `limits-${randomUUID()}` },
      });

    it("counts publications against today's free-content limit, all of a request's or none, and refuses one over it with 429 before any run", async () => {
      const caller = await h.newKey();
      const first = await publish(limited, caller.key, [publisher("One", `First limited prompt ${randomUUID()}`)]);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(await usageOf(caller.userId)).to.deep.equal({ paid: 0, free: 1 });

      // Two new texts with one slot left: neither is stored, nothing runs.
      const both = await publish(limited, caller.key, [
        publisher("Two", `Second limited prompt ${randomUUID()}`),
        publisher("Three", `Third limited prompt ${randomUUID()}`),
      ]);
      expect(both.status, JSON.stringify(both.body)).to.equal(429);
      expect(both.body).to.have.all.keys("detail", "code", "status_code", "reset_time");
      expect(both.body.code).to.equal("DAILY_LIMIT_EXCEEDED");
      expect(both.body.detail)
        .to.be.a("string")
        .and.include("Nothing was published or run")
        .and.include("limit of 2 for freeContent");
      expect(new Date(both.body.reset_time).getTime()).to.be.greaterThan(Date.now());
      expect(both.headers.get(HEADER)).to.equal(null);
      expect(await promptsOf(caller.userId)).to.have.length(1);
      expect(await runsOf(caller.userId)).to.equal(1);
      expect(await usageOf(caller.userId)).to.deep.equal({ paid: 0, free: 1 });

      const last = await publish(limited, caller.key, [publisher("Four", `Fourth limited prompt ${randomUUID()}`)]);
      expect(last.status, JSON.stringify(last.body)).to.equal(200);
      // At the limit: refused before any run; publishing a text already published still works.
      const over = await request(limited.url, "POST", "/v1/agent/completions", {
        key: caller.key,
        body: { agent_config: publisher("Five", `Fifth limited prompt ${randomUUID()}`), task: "t" },
      });
      expect(over.status, JSON.stringify(over.body)).to.equal(429);
      expect(over.body.code).to.equal("DAILY_LIMIT_EXCEEDED");
      expect(await runsOf(caller.userId)).to.equal(2);
      const reused = await publish(limited, caller.key, [
        publisher("Again", (await promptRow(last.headers.get(HEADER)!)).prompt),
      ]);
      expect(reused.status, JSON.stringify(reused.body)).to.equal(200);
      expect(reused.headers.get(HEADER)).to.equal(last.headers.get(HEADER));
      expect(await usageOf(caller.userId)).to.deep.equal({ paid: 0, free: 2 });
    });

    it("lets exactly the limit through when publications race", async () => {
      const caller = await h.newKey();
      const answers = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          request(single.url, "POST", "/v1/agent/completions", {
            key: caller.key,
            body: { agent_config: publisher(`Racer ${n}`, `Racing prompt ${n} ${randomUUID()}`), task: "t" },
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 429, 429, 429, 429]);
      expect(await promptsOf(caller.userId)).to.have.length(1);
      expect(await runsOf(caller.userId)).to.equal(1);
    });

    it("refuses a paid publication with 503 when no price is available, storing and running nothing", async () => {
      const res = await request(noPrice.url, "POST", "/v1/agent/completions", {
        key,
        body: {
          agent_config: publisher("Unpriced", `You grade rare coins from descriptions ${randomUUID()}.`, {
            is_free: false,
            price_usd: 5,
          }),
          task: "t",
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(503);
      expect(res.body).to.have.all.keys("detail", "code", "status_code");
      expect(res.body.code).to.equal("PRICE_UNAVAILABLE");
      expect(res.body.detail)
        .to.include("agent_config (Unpriced) could not be published")
        .and.include("nothing was stored");
      expect(downPrices.requests.length).to.be.greaterThan(0); // the source was asked
      const [stored] = await h.deps.ds.query(
        "SELECT count(*)::int AS n FROM prompts WHERE name = 'Unpriced' AND user_id = $1",
        [userId],
      );
      expect(stored.n).to.equal(0);
    });
  });
});
