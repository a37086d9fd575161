import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
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

describe("publish_to_marketplace", () => {
  let h: Harness;
  let key: string;
  let userId: string;

  before(async () => {
    h = await harness();
    ({ key, userId } = await h.newKey());
  });

  const promptRow = async (id: string) => (await h.deps.ds.query("SELECT * FROM prompts WHERE id = $1", [id]))[0];
  const promptsOf = async (ownerId: string) => (await h.deps.ds.query("SELECT id FROM prompts WHERE user_id = $1", [ownerId])) as { id: string }[];
  const runsOf = async (ownerId: string) => (await h.deps.ds.query("SELECT count(*)::int AS n FROM runs WHERE user_id = $1", [ownerId]))[0].n as number;

  it("E5: publishes the agent's system prompt with its metadata, pending review, and names it in a header and the stored request", async () => {
    const prompt = `You review contracts clause by clause ${randomUUID()}.`;
    const marker = `publish-${randomUUID()}`;
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Contract Reviewer", prompt, { is_free: false, price_usd: 2.5, published_prompt_id: "forged" }), task: marker },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.all.keys("job_id", "success", "name", "description", "temperature", "outputs", "usage", "timestamp"); // body unchanged
    const id = res.headers.get(HEADER)!;
    expect(id).to.match(UUID);

    const row = await promptRow(id);
    expect(row).to.include({ user_id: userId, name: "Contract Reviewer", prompt, description: "Contract Reviewer reviews contracts", tags: "legal,review", category: "analysis", is_free: false, price_usd: 2.5, status: "pending", source: "agent" });
    expect(row.use_cases).to.deep.equal([{ title: "Contracts", description: "Reviews supplier contracts" }]);
    const [run] = await h.deps.ds.query("SELECT request FROM runs WHERE job_id = $1", [res.body.job_id]);
    expect(run.request.agent_config.published_prompt_id).to.equal(id);
    expect(callsMentioning(h, marker)[0].messages[0]).to.deep.equal({ role: "system", content: prompt });
  });

  it("reuses the caller's existing prompt for the same text (whitespace and case aside), without an error", async () => {
    const prompt = `You summarise board minutes ${randomUUID()}.`;
    const first = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body: { agent_config: publisher("Minutes", prompt), task: "a" } });
    const again = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Minutes Again", `  ${prompt.toUpperCase().replace(/ /g, "\n  ")} `), task: "b" },
    });
    expect([first.status, again.status], JSON.stringify(again.body)).to.deep.equal([200, 200]);
    expect(again.headers.get(HEADER)).to.equal(first.headers.get(HEADER));
    const rows = await h.deps.ds.query("SELECT name FROM prompts WHERE id = $1", [first.headers.get(HEADER)]);
    expect(rows).to.deep.equal([{ name: "Minutes" }]); // the first publication stands

    // An idempotent replay answers with the same header, and publishes nothing more.
    const body = { agent_config: publisher("Replayed", `You file expense reports ${randomUUID()}.`), task: "c" };
    const headers = { "idempotency-key": randomUUID() };
    const original = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body, headers });
    const replay = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body, headers });
    expect(replay.headers.get("idempotent-replayed")).to.equal("true");
    expect(replay.headers.get(HEADER)).to.equal(original.headers.get(HEADER)).and.match(UUID);
  });

  it("refuses an agent that cannot be published with 400 naming every problem, before any prompt or run is stored", async () => {
    const caller = await h.newKey();
    const bad = [
      { path: "/v1/agent/completions", body: { agent_config: { agent_name: "X", system_prompt: "hi", publish_to_marketplace: true, is_free: false }, task: "t" } },
      {
        path: "/v1/agent/batch/completions",
        body: [
          { agent_config: publisher("Fine", `A fine prompt ${randomUUID()}`), task: "t" },
          { agent_config: publisher("Paid", `A paid prompt ${randomUUID()}`, { is_free: false, use_cases: [{ title: "" }] }), task: "t" },
        ],
      },
      { path: "/v1/swarm/completions", body: { agents: [publisher("Fine", `Another fine prompt ${randomUUID()}`), publisher("Borrowed", "ignored", { marketplace_prompt_id: null, tags: [] })], task: "t" } },
    ];
    for (const { path, body } of bad) {
      const res = await request(h.baseUrl, "POST", path, { key: caller.key, body });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.code).to.equal("INVALID_MARKETPLACE_PUBLICATION");
      expect(res.headers.get(HEADER)).to.equal(null);
    }
    const [e5, e3, e1] = await Promise.all(bad.map(({ path, body }) => request(h.baseUrl, "POST", path, { key: caller.key, body }).then((r) => r.body.detail as string)));
    expect(e5).to.include("agent_config (X): agent_name of at least 2 characters").and.include("system_prompt of at least 5 characters")
      .and.include("at least one use case").and.include("tags").and.include("price_usd above 0");
    expect(e3).to.include("[1].agent_config (Paid)").and.include("every use case needs a title and a description").and.include("price_usd above 0").and.not.include("(Fine)");
    expect(e1).to.include("agents[1] (Borrowed)").and.include("tags").and.not.include("(Fine)");
    expect(await promptsOf(caller.userId)).to.deep.equal([]);
    expect(await runsOf(caller.userId)).to.equal(0);
  });

  it("refuses to republish an agent that runs on someone's marketplace prompt", async () => {
    const mine = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body: { agent_config: publisher("Original", `Original text ${randomUUID()}`), task: "t" } });
    const copy = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: publisher("Copy", "unused", { marketplace_prompt_id: mine.headers.get(HEADER) }), task: "t" },
    });
    expect(copy.status).to.equal(400);
    expect(copy.body.detail).to.include("an agent using marketplace_prompt_id cannot be published again");
  });

  it("E1 and E3: every publishing agent (handoffs too) gets its prompt; the header lists them in agent order", async () => {
    const [a, b, c] = [1, 2, 3].map((n) => `Swarm member prompt ${n} ${randomUUID()}`);
    const swarm = await postSwarm(h, key, {
      swarm_type: "ConcurrentWorkflow",
      agents: [publisher("Alpha", a), { agent_name: "Quiet", system_prompt: "Not published.", published_prompt_id: "forged" }, publisher("Beta", b, { handoffs: [publisher("Gamma", c)] })],
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
      body: [{ agent_config: publisher("One", a), task: "x" }, { agent_config: { agent_name: "Two" }, task: "y" }],
    });
    expect(batch.status).to.equal(202);
    expect(batch.headers.get(HEADER)).to.equal(ids[0]); // the same text as Alpha's: the same prompt
  });

  it("E2: an item whose agent cannot be published takes its slot; the others publish and run", async () => {
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
    expect(res.body[1].detail).to.include("agents[0] (Solo): at least one use case is required to publish");
    const id = res.headers.get(HEADER)!;
    expect((await promptRow(id)).prompt).to.equal(text);
  });

  it("a published paid prompt, once approved, is listed by E4 without its text and usable by others through marketplace_prompt_id", async () => {
    const prompt = `You price antique clocks ${randomUUID()}.`;
    const published = await request(h.baseUrl, "POST", "/v1/agent/completions", { key, body: { agent_config: publisher("Clock Pricer", prompt, { is_free: false, price_usd: 3 }), task: "t" } });
    const id = published.headers.get(HEADER)!;
    const listed = async (k: string) => ((await request(h.baseUrl, "POST", "/v1/marketplace/agents", { key: k, body: { number_of_items: 100 } })).body.prompts as any[]).find((p) => p.id === id);
    const buyer = await h.newKey();
    expect(await listed(buyer.key)).to.equal(undefined); // pending review

    await h.deps.ds.query("UPDATE prompts SET status = 'approved', created_at = now() + interval '1000 days' WHERE id = $1", [id]);
    expect(await listed(buyer.key)).to.include({ id, name: "Clock Pricer", prompt: "", user_id: userId });
    const marker = `buyer-${randomUUID()}`;
    const used = await request(h.baseUrl, "POST", "/v1/agent/completions", { key: buyer.key, body: { agent_config: { marketplace_prompt_id: id }, task: marker } });
    expect(used.status, JSON.stringify(used.body)).to.equal(200);
    expect(callsMentioning(h, marker)[0].messages[0]).to.deep.equal({ role: "system", content: prompt });
  });
});
