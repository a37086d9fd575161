import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import {
  makeTrusted,
  moderate,
  post,
  PROMPT_RECORD_FIELDS,
  promptBody,
  promptsPlatform,
  sessionToken,
  type PromptsPlatform,
} from "../../helpers/prompts";

describe("POST /api/query-prompts", function () {
  this.timeout(90_000);
  let h: Harness;
  let platform: PromptsPlatform;
  let seller: { key: string; userId: string };
  let other: { key: string; userId: string };
  /** A word only this run's fixture prompts carry in their names. */
  const marker = `qp${randomUUID().slice(0, 8)}`;
  const ids: Record<string, string> = {};

  async function create(owner: { key: string }, label: string, overrides: Record<string, unknown> = {}): Promise<void> {
    const res = await post(
      platform.url,
      "/api/add-prompt",
      owner.key,
      promptBody({ name: `${marker} ${label}`, ...overrides }),
    );
    if (res.status !== 200) throw new Error(`${label}: ${JSON.stringify(res.body)}`);
    ids[label] = res.body.id;
    // Others see a prompt once a moderator has decided on it (approved), or never (rejected).
    await moderate(h, platform.url, res.body.id, overrides.status === "rejected" ? "rejected" : "approved");
  }

  async function rate(label: string, ratings: number[]): Promise<void> {
    for (const rating of ratings) {
      const rater = await h.newKey();
      const res = await post(platform.url, "/api/rate-prompt", rater.key, { id: ids[label], rating });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    }
  }

  const query = (body: Record<string, unknown>, token: string | null = null) =>
    post(platform.url, "/api/query-prompts", token, { search: marker, ...body });
  const labels = (res: { body: any[] }) => res.body.map((p) => Object.entries(ids).find(([, id]) => id === p.id)?.[0]);

  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
    seller = await h.newKey();
    other = await h.newKey();
    await makeTrusted(h, platform.url, seller.key);
    // Created in this order, so newest first is the reverse.
    await create(seller, "alpha", { category: "Content" });
    await create(seller, "bravo", { category: "code", is_free: false, price_usd: 5 });
    await create(other, "charlie", { category: "content", description: "Finds the 100% best headline" });
    await create(seller, "delta", { category: "analysis" });
    await create(other, "echo", { category: "CONTENT", status: "rejected" });
    await create(other, "foxtrot", { category: "code" });
    await create(seller, "golf", { category: "code" });
    await rate("alpha", [3, 3]);
    await rate("bravo", [5]);
    await rate("delta", [5, 4]);
  });
  after(() => platform?.close());

  it("returns the spec's prompt records, newest first, 6 by default, to anonymous callers", async () => {
    const res = await query({});
    expect(res.status).to.equal(200);
    expect(res.body).to.be.an("array").with.length(6);
    expect(labels(res)).to.deep.equal(["golf", "foxtrot", "delta", "charlie", "bravo", "alpha"]);
    for (const record of res.body) expect(Object.keys(record).sort()).to.deep.equal(PROMPT_RECORD_FIELDS);
    const alpha = res.body.find((p: any) => p.id === ids.alpha);
    expect(alpha).to.include({ user_id: seller.userId, is_free: true, category: "Content", status: "approved" });
    expect(new Date(alpha.created_at).toISOString()).to.equal(alpha.created_at);
  });

  it("sorts oldest, popular (reviews, then average) and rating (average, nulls last; ties newest first)", async () => {
    expect(labels(await query({ sortBy: "oldest", limit: 100 }))).to.deep.equal([
      "alpha",
      "bravo",
      "charlie",
      "delta",
      "foxtrot",
      "golf",
    ]);
    expect(labels(await query({ sortBy: "popular", limit: 100 }))).to.deep.equal([
      "delta",
      "alpha",
      "bravo",
      "golf",
      "foxtrot",
      "charlie",
    ]);
    expect(labels(await query({ sortBy: "rating", limit: 100 }))).to.deep.equal([
      "bravo",
      "delta",
      "alpha",
      "golf",
      "foxtrot",
      "charlie",
    ]);
  });

  it("filters by price, category (case-insensitive), user and text in name or description", async () => {
    expect(labels(await query({ priceFilter: "paid", limit: 100 }))).to.deep.equal(["bravo"]);
    expect(labels(await query({ priceFilter: "free", limit: 100 }))).to.deep.equal([
      "golf",
      "foxtrot",
      "delta",
      "charlie",
      "alpha",
    ]);
    expect(labels(await query({ category: "CONTENT", limit: 100 }))).to.deep.equal(["charlie", "alpha"]);
    expect(labels(await query({ userFilter: other.userId, limit: 100 }))).to.deep.equal(["foxtrot", "charlie"]);
    expect(labels(await query({ search: `${marker.toUpperCase()} DEL` }))).to.deep.equal(["delta"]);
    expect(labels(await query({ search: "100% BEST HEADLINE" }))).to.deep.equal(["charlie"]);
    // LIKE's own characters are taken literally.
    expect((await query({ search: `${marker}%` })).body).to.deep.equal([]);
    expect((await query({ search: `${marker.slice(0, 3)}_` })).body).to.deep.equal([]);
  });

  it("pages with limit and offset", async () => {
    expect(labels(await query({ sortBy: "oldest", limit: 2, offset: 2 }))).to.deep.equal(["charlie", "delta"]);
    expect((await query({ offset: 50 })).body).to.deep.equal([]);
  });

  it("shows rejected prompts only to their owner (API key or session token)", async () => {
    expect(labels(await query({ limit: 100 }))).to.not.include("echo");
    expect(labels(await query({ limit: 100 }, seller.key))).to.not.include("echo");
    expect(labels(await query({ limit: 100 }, other.key))).to.include("echo");
    expect(labels(await query({ limit: 100 }, await sessionToken(other.userId)))).to.include("echo");
  });

  it("shows prompts waiting for review only to their owner, whatever status the owner asked for", async () => {
    const res = await post(
      platform.url,
      "/api/add-prompt",
      other.key,
      promptBody({ name: `${marker} hotel`, status: "approved" }),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const found = async (token: string | null) =>
      (await query({ limit: 100 }, token)).body.some((p: any) => p.id === res.body.id);
    expect(await found(null)).to.equal(false);
    expect(await found(seller.key)).to.equal(false);
    expect(await found(other.key)).to.equal(true);
  });

  it("hides a paid prompt's text from everyone but its owner", async () => {
    const anonymous = (await query({ priceFilter: "paid" })).body[0];
    expect(anonymous).to.include({ id: ids.bravo, prompt: "", is_free: false, price_usd: 5, price: 0.025 });
    expect((await query({ priceFilter: "paid" }, other.key)).body[0].prompt).to.equal("");
    expect((await query({ priceFilter: "paid" }, seller.key)).body[0].prompt).to.match(/release notes/);
    expect((await query({ search: `${marker} alpha` })).body[0].prompt).to.match(/release notes/);
  });

  it("refuses out-of-bounds parameters with 400 listing each", async () => {
    const res = await post(platform.url, "/api/query-prompts", null, {
      search: "s".repeat(101),
      category: "c".repeat(51),
      priceFilter: "cheap",
      userFilter: "someone",
      sortBy: "random",
      limit: 101,
      offset: -1,
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal("Validation error");
    expect(res.body.errors.map((e: any) => e.path).sort()).to.deep.equal([
      "category",
      "limit",
      "offset",
      "priceFilter",
      "search",
      "sortBy",
      "userFilter",
    ]);
    for (const limit of [0, 2.5, "many"]) expect((await query({ limit })).status, String(limit)).to.equal(400);
  });

  it("accepts an empty request, and answers the fixed 401 for credentials that are wrong", async () => {
    const empty = await request(platform.url, "POST", "/api/query-prompts");
    expect(empty.status).to.equal(200);
    expect(empty.body).to.be.an("array");
    const wrong = await query({}, "sk-" + "f".repeat(64));
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.include({
      error: "Authentication failed",
      message: "Invalid or missing API key. Please check your API key and try again.",
    });
  });
});

describe("POST /api/rate-prompt", function () {
  this.timeout(60_000);
  let h: Harness;
  let platform: PromptsPlatform;
  let owner: { key: string; userId: string };
  let promptId: string;

  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
    owner = await h.newKey();
    promptId = (await post(platform.url, "/api/add-prompt", owner.key, promptBody())).body.id;
    await moderate(h, platform.url, promptId);
  });
  after(() => platform?.close());

  const counters = async (id: string) =>
    (await h.deps.ds.query(`SELECT review_count, rating_sum FROM prompts WHERE id = $1`, [id]))[0];

  it("records a rating, and a second rating by the same user replaces it", async () => {
    const { key, userId } = await h.newKey();
    const first = await post(platform.url, "/api/rate-prompt", key, { id: promptId, rating: 2, comment: "Too terse" });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({ success: true, id: promptId, rating: 2, review_count: 1, average_rating: 2 });
    const second = await post(platform.url, "/api/rate-prompt", await sessionToken(userId), {
      id: promptId,
      rating: 5,
    });
    expect(second.body).to.include({ review_count: 1, average_rating: 5 });
    expect(await counters(promptId)).to.deep.equal({ review_count: 1, rating_sum: 5 });
    const [review] = await h.deps.ds.query(
      `SELECT rating, comment FROM prompt_reviews WHERE prompt_id = $1 AND user_id = $2`,
      [promptId, userId],
    );
    expect(review).to.deep.equal({ rating: 5, comment: null });
  });

  it("keeps the counters exact under concurrent ratings", async () => {
    const id = (await post(platform.url, "/api/add-prompt", owner.key, promptBody())).body.id;
    await moderate(h, platform.url, id);
    const raters = await Promise.all(Array.from({ length: 20 }, () => h.newKey()));
    const results = await Promise.all(
      raters.map((r, i) => post(platform.url, "/api/rate-prompt", r.key, { id, rating: (i % 5) + 1 })),
    );
    expect(results.every((r) => r.status === 200)).to.equal(true);
    expect(await counters(id)).to.deep.equal({ review_count: 20, rating_sum: 60 });
  });

  it("refuses one's own prompt (403), unknown or hidden prompts (404) and bad ratings (400)", async () => {
    const own = await post(platform.url, "/api/rate-prompt", owner.key, { id: promptId, rating: 5 });
    expect(own.status).to.equal(403);
    expect(own.body).to.include({ error: "Forbidden", status_code: 403 });
    const { key } = await h.newKey();
    expect((await post(platform.url, "/api/rate-prompt", key, { id: randomUUID(), rating: 4 })).status).to.equal(404);
    const pending = (await post(platform.url, "/api/add-prompt", owner.key, promptBody({ status: "approved" }))).body
      .id;
    expect((await post(platform.url, "/api/rate-prompt", key, { id: pending, rating: 4 })).status).to.equal(404);
    const rejected = (await post(platform.url, "/api/add-prompt", owner.key, promptBody())).body.id;
    await moderate(h, platform.url, rejected, "rejected");
    expect((await post(platform.url, "/api/rate-prompt", key, { id: rejected, rating: 4 })).status).to.equal(404);
    for (const rating of [0, 6, 2.5, "five", null]) {
      const res = await post(platform.url, "/api/rate-prompt", key, { id: promptId, rating });
      expect(res.status, String(rating)).to.equal(400);
      expect(res.body.errors[0].path).to.equal("rating");
    }
    expect((await post(platform.url, "/api/rate-prompt", key, { id: "not-a-uuid", rating: 3 })).status).to.equal(400);
    expect((await post(platform.url, "/api/rate-prompt", null, { id: promptId, rating: 3 })).status).to.equal(401);
  });
});
