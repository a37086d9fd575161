import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { insertPrompt } from "../helpers/marketplace-prompts";

const MARKETPLACE_AGENTS = "/v1/marketplace/agents";
const DAY = 86_400_000;

/** A creation time `days` from now: later than anything other tests store, so these rows lead the listing. */
const inDays = (days: number) => new Date(Date.now() + days * DAY);

describe("POST /v1/marketplace/agents", () => {
  let h: Harness;
  let key: string;
  let userId: string;
  let seller: { key: string; userId: string };

  before(async () => {
    h = await harness();
    ({ key, userId } = await h.newKey());
    seller = await h.newKey();
  });

  it("lists approved prompts only, newest first, with the spec's fields and the total of approved prompts", async () => {
    const older = await insertPrompt(h.deps.ds, { userId: seller.userId, createdAt: inDays(100) });
    const newer = await insertPrompt(h.deps.ds, {
      userId: seller.userId,
      createdAt: inDays(101),
      links: ["https://example.test/a", { name: "Docs", url: "https://example.test/docs" }],
    });
    await insertPrompt(h.deps.ds, { userId: seller.userId, createdAt: inDays(102), status: "pending" });
    await insertPrompt(h.deps.ds, { userId: seller.userId, createdAt: inDays(103), status: "rejected" });

    const res = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body: { number_of_items: 2 } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.all.keys("prompts", "total_count", "status", "timestamp");
    expect(res.body.status).to.equal("success");
    expect(res.body.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/); // ISO 8601, no zone
    expect(Math.abs(new Date(`${res.body.timestamp}Z`).getTime() - Date.now())).to.be.lessThan(60_000); // and it is UTC
    expect(res.body.prompts.map((p: any) => p.id)).to.deep.equal([newer.id, older.id]);
    // Bundles are listed by the platform's bundle query, never here (they have no text to run).
    const [{ count }] = await h.deps.ds.query(
      "SELECT count(*)::int AS count FROM prompts WHERE status = 'approved' AND kind <> 'bundle'",
    );
    expect(res.body.total_count).to.equal(count);

    const item = res.body.prompts[0];
    expect(item).to.have.all.keys(
      "id",
      "created_at",
      "user_id",
      "name",
      "description",
      "prompt",
      "use_cases",
      "status",
      "tags",
      "category",
      "links",
    );
    expect(item).to.include({
      user_id: seller.userId,
      name: `Prompt ${newer.id.slice(0, 8)}`,
      description: "A prompt for tests",
      prompt: newer.prompt,
      status: "approved",
      tags: "test,prompt",
      category: "testing",
    });
    expect(new Date(item.created_at).getTime()).to.equal(new Date(newer.created_at).getTime());
    expect(item.use_cases).to.deep.equal({ Testing: "Used by the tests" });
    expect(item.links).to.deep.equal(["https://example.test/a", { name: "Docs", url: "https://example.test/docs" }]);
  });

  it("returns 10 items by default, for an empty body, an empty object or number_of_items null", async () => {
    const rows = [];
    for (let i = 0; i < 11; i++)
      rows.push(await insertPrompt(h.deps.ds, { userId: seller.userId, createdAt: inDays(200 + i) }));
    const newestTen = rows
      .reverse()
      .slice(0, 10)
      .map((r) => r.id);
    for (const body of [undefined, {}, { number_of_items: null }]) {
      const res = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.prompts.map((p: any) => p.id)).to.deep.equal(newestTen);
    }
    const one = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body: { number_of_items: 1 } });
    expect(one.body.prompts.map((p: any) => p.id)).to.deep.equal([newestTen[0]]);
  });

  it("refuses number_of_items outside 1–100 or not an integer with the /v1 422 body", async () => {
    for (const bad of [0, 101, -3, 2.5, "many", true]) {
      const res = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body: { number_of_items: bad } });
      expect(res.status, `${bad}: ${JSON.stringify(res.body)}`).to.equal(422);
      expect(res.body).to.include({ code: "VALIDATION_ERROR", status_code: 422 });
      expect(res.body.detail).to.be.an("array").with.length(1);
      expect(res.body.detail[0].loc).to.deep.equal(["body", "number_of_items"]);
      expect(res.body.detail[0].msg).to.be.a("string").and.include("number_of_items");
    }
    const hundred = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body: { number_of_items: 100 } });
    expect(hundred.status).to.equal(200);
    expect(hundred.body.prompts.length).to.be.at.most(100);
  });

  it("shows a paid prompt's text only to its owner; free prompts' text to everyone", async () => {
    const paid = await insertPrompt(h.deps.ds, {
      userId: seller.userId,
      isFree: false,
      priceUsd: 4.5,
      createdAt: inDays(300),
    });
    const free = await insertPrompt(h.deps.ds, { userId: seller.userId, createdAt: inDays(299) });
    const byId = (body: any) => new Map(body.prompts.map((p: any) => [p.id, p]));

    const buyer = byId(
      (await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body: { number_of_items: 2 } })).body,
    );
    expect(buyer.get(paid.id)).to.include({ prompt: "" });
    expect(buyer.get(free.id)).to.include({ prompt: free.prompt });

    const owner = byId(
      (await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key: seller.key, body: { number_of_items: 2 } })).body,
    );
    expect(owner.get(paid.id)).to.include({ prompt: paid.prompt });
  });

  it("presents stored use cases as an object of title → description, missing texts as empty strings", async () => {
    const row = await insertPrompt(h.deps.ds, {
      userId,
      createdAt: inDays(400),
      description: null,
      tags: null,
      category: null,
      useCases: [
        { title: "Summaries", description: "Condense reports" },
        { title: "Emails", description: "Draft replies" },
        { title: "Summaries", description: "Condense meeting notes" },
      ],
    });
    const res = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { key, body: { number_of_items: 1 } });
    const [item] = res.body.prompts;
    expect(item.id).to.equal(row.id);
    expect(item.use_cases).to.deep.equal({
      Summaries: "Condense reports\n\nCondense meeting notes",
      Emails: "Draft replies",
    });
    expect(Object.keys(item.use_cases)).to.deep.equal(["Summaries", "Emails"]);
    expect(item).to.include({ description: "", tags: "", category: "" });
  });

  it("needs an API key", async () => {
    const res = await request(h.baseUrl, "POST", MARKETPLACE_AGENTS, { body: {} });
    expect(res.status).to.equal(401);
    expect(res.body).to.include({ code: "AUTHENTICATION_FAILED" });
  });
});
