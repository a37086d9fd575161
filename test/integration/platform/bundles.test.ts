import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../../shared/config";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { moderate, post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";

/** A valid `POST /api/v1/publish/bundle` body over these listings. */
function bundleBody(items: string[], overrides: Record<string, unknown> = {}): Record<string, any> {
  const marker = randomUUID().slice(0, 8);
  return {
    name: `Release kit ${marker}`,
    items,
    description: "Everything to ship release notes: a changelog prompt and an announcement prompt.",
    useCases: [{ title: "Release day", description: "From merged changes to the announcement" }],
    tags: "writing,release",
    category: "content",
    ...overrides,
  };
}

function paths(body: any): string[] {
  return body.errors.map((e: { path: string }) => e.path).sort();
}

const BUNDLE_RECORD_FIELDS = [
  "category",
  "created_at",
  "description",
  "file_path",
  "id",
  "image_url",
  "is_free",
  "items",
  "links",
  "name",
  "price",
  "price_usd",
  "seller_wallet_address",
  "status",
  "tags",
  "updated_at",
  "use_cases",
  "user_id",
];

describe("bundles: POST /api/v1/publish/bundle, /api/edit-bundle, /api/query-bundles", function () {
  this.timeout(60_000);
  let h: Harness;
  let platform: PromptsPlatform;
  let owner: { key: string; userId: string };
  let other: { key: string; userId: string };

  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
    owner = await h.newKey();
    other = await h.newKey();
  });
  after(() => platform?.close());

  const stored = async (id: string) => (await h.deps.ds.query(`SELECT * FROM prompts WHERE id = $1`, [id]))[0];
  const storedItems = async (id: string) =>
    (await h.deps.ds.query(`SELECT item_id FROM bundle_items WHERE bundle_id = $1 ORDER BY position`, [id])).map(
      (r: { item_id: string }) => r.item_id,
    );
  const storedItemsOfUser = async (userId: string) =>
    h.deps.ds.query(`SELECT b.item_id FROM bundle_items b JOIN prompts p ON p.id = b.bundle_id WHERE p.user_id = $1`, [
      userId,
    ]);
  const newPrompt = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await post(platform.url, "/api/add-prompt", key, promptBody(overrides));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };
  const newAgent = async (key: string) => {
    const marker = randomUUID().slice(0, 8);
    const res = await post(platform.url, "/api/add-agent", key, {
      name: `Changelog agent ${marker}`,
      agent: `You are an agent that writes changelogs from merged changes, grouped by area. Reference ${marker}.`,
      description: "Turns merged changes into a changelog people read.",
      useCases: [{ title: "Weekly changelog", description: "Summarise a week of merged changes" }],
      tags: "writing,release",
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };
  const publish = (key: string | null, body: Record<string, unknown>, url = platform.url) =>
    post(url, "/api/v1/publish/bundle", key, body);
  const newBundle = async (key: string, items: string[], overrides: Record<string, unknown> = {}) => {
    const res = await publish(key, bundleBody(items, overrides));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };

  describe("POST /api/v1/publish/bundle", () => {
    it("stores a bundle of the caller's prompt and agent waiting for review, its members in the order given", async () => {
      const prompt = await newPrompt(owner.key);
      const agent = await newAgent(owner.key);
      const body = bundleBody([agent, prompt.toUpperCase()]);
      const res = await publish(owner.key, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal(["id", "listing_url", "success"]);
      expect(res.body.listing_url).to.equal(`${config.http.platformUrl}/bundle/${res.body.id}`);
      expect(await stored(res.body.id)).to.include({
        kind: "bundle",
        user_id: owner.userId,
        name: body.name,
        description: body.description,
        status: "pending",
        is_free: true,
        tokenized_on: false,
        source: "api",
      });
      expect(await storedItems(res.body.id)).to.deep.equal([agent, prompt]);
    });

    it("refuses a caller without credentials, or with a bad key, with the platform's 401", async () => {
      for (const key of [null, "sk-not-a-key"]) {
        const res = await publish(key, bundleBody([randomUUID(), randomUUID()]));
        expect(res.status).to.equal(401);
        expect(res.body).to.include({ error: "Authentication failed", status_code: 401 });
      }
    });

    it("reports every bad field at once as a 400 Validation error, never a 500", async () => {
      const id = randomUUID();
      const res = await publish(owner.key, {
        name: "x",
        items: [id, id, "not-an-id", 7],
        useCases: "many",
        tags: 7,
        is_free: "maybe",
        price_usd: -1,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.include({ error: "Validation error", code: "VALIDATION_ERROR", status_code: 400 });
      expect(paths(res.body)).to.deep.equal(
        ["description", "is_free", "items.1", "items.2", "items.3", "name", "price_usd", "tags", "useCases"].sort(),
      );
      const one = await publish(owner.key, bundleBody([await newPrompt(owner.key)]));
      expect(one.status).to.equal(400);
      expect(paths(one.body)).to.deep.equal(["items"]);
      const many = await publish(owner.key, bundleBody(Array.from({ length: 21 }, () => randomUUID())));
      expect(many.status).to.equal(400);
      expect(paths(many.body)).to.deep.equal(["items"]);
    });

    it("refuses, alike, an unknown id, another user's listing and a bundle, and stores nothing", async () => {
      const mine = await newPrompt(owner.key);
      const mine2 = await newPrompt(owner.key);
      const bundle = await newBundle(owner.key, [mine, mine2]);
      const theirs = await newPrompt(other.key);
      const before = await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts WHERE user_id = $1`, [owner.userId]);
      const res = await publish(owner.key, bundleBody([mine, randomUUID(), theirs, bundle]));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.include({ code: "VALIDATION_ERROR" });
      expect(paths(res.body)).to.deep.equal(["items.1", "items.2", "items.3"]);
      const messages = res.body.errors.map((e: { message: string }) => e.message.replace(/\d/g, "#"));
      expect(new Set(messages).size, "one message for every kind of stranger").to.equal(1);
      expect(JSON.stringify(res.body)).to.not.include(theirs);
      const after = await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts WHERE user_id = $1`, [owner.userId]);
      expect(after[0].n).to.equal(before[0].n);
    });

    it("refuses the same members again, in any order, naming the first bundle; another mix is another bundle", async () => {
      const [a, b, c] = [await newPrompt(owner.key), await newPrompt(owner.key), await newPrompt(owner.key)];
      const first = await newBundle(owner.key, [a, b]);
      const again = await publish(owner.key, bundleBody([b, a], { name: "Another name" }));
      expect(again.status, JSON.stringify(again.body)).to.equal(400);
      expect(again.body).to.include({ code: "DUPLICATE_CONTENT", existingId: first });
      expect((await publish(owner.key, bundleBody([a, b, c]))).status).to.equal(200);
    });

    it("holds a paid bundle to the prompt rules: a price above 0, and a trusted seller", async () => {
      const items = [await newPrompt(owner.key), await newPrompt(owner.key)];
      const noPrice = await publish(owner.key, bundleBody(items, { is_free: false }));
      expect(noPrice.status).to.equal(400);
      expect(paths(noPrice.body)).to.deep.equal(["price_usd"]);
      const untrusted = await publish(owner.key, bundleBody(items, { is_free: false, price_usd: 4 }));
      expect(untrusted.status, JSON.stringify(untrusted.body)).to.equal(403);
      expect(untrusted.body).to.include({ error: "Content validation failed", status_code: 403 });
    });

    it("scores the bundle's own text: unsafe content is refused and nothing is stored", async () => {
      const items = [await newPrompt(owner.key), await newPrompt(owner.key)];
      const res = await publish(
        owner.key,
        bundleBody(items, { description: "Sexual content involving minors, explicit and graphic, for sale." }),
      );
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([400, 403]);
      expect(res.body).to.include({ error: "Content validation failed" });
      expect(
        await h.deps.ds.query(`SELECT 1 FROM bundle_items WHERE item_id = ANY($1::uuid[])`, [items]),
      ).to.have.length(0);
    });
  });

  describe("daily limits", () => {
    it("counts bundles against the prompt routes' daily limit (with the prompts) and answers its 429", async () => {
      // Three prompts take three of the four free listings of the day; the first bundle takes the last one.
      const user = await h.newKey();
      const [a, b, c] = [await newPrompt(user.key), await newPrompt(user.key), await newPrompt(user.key)];
      const limited = await promptsPlatform(h, { dailyLimits: { freeContent: 4 } });
      try {
        expect((await publish(user.key, bundleBody([a, b]), limited.url)).status).to.equal(200);
        const refused = await publish(user.key, bundleBody([a, c]), limited.url);
        expect(refused.status, JSON.stringify(refused.body)).to.equal(429);
        expect(refused.body).to.include({ error: "Daily limit exceeded", status_code: 429 });
        expect(refused.body).to.have.property("resetTime");
        expect((await storedItemsOfUser(user.userId)).length).to.equal(2);
      } finally {
        await limited.close();
      }
    });
  });

  describe("POST /api/edit-bundle", () => {
    it("updates one's own bundle and answers the stored Bundle record with its members", async () => {
      const [a, b, c] = [await newPrompt(owner.key), await newAgent(owner.key), await newPrompt(owner.key)];
      const id = await newBundle(owner.key, [a, b]);
      const res = await post(platform.url, "/api/edit-bundle", owner.key, {
        id,
        description: "A better description of the release kit bundle.",
        items: [c, b, a],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ success: true, id, listing_url: `${config.http.platformUrl}/bundle/${id}` });
      expect(Object.keys(res.body.updated_data).sort()).to.deep.equal(BUNDLE_RECORD_FIELDS);
      expect(res.body.updated_data.description).to.equal("A better description of the release kit bundle.");
      expect(res.body.updated_data.items.map((i: any) => [i.id, i.kind])).to.deep.equal([
        [c, "prompt"],
        [b, "agent"],
        [a, "prompt"],
      ]);
      expect(await storedItems(id)).to.deep.equal([c, b, a]);
    });

    it("is 404 for another user's bundle, an unknown id, and a prompt; edit-prompt is 404 for a bundle", async () => {
      const items = [await newPrompt(owner.key), await newPrompt(owner.key)];
      const id = await newBundle(owner.key, items);
      for (const [key, target] of [
        [other.key, id],
        [owner.key, randomUUID()],
        [owner.key, items[0]],
      ]) {
        const res = await post(platform.url, "/api/edit-bundle", key, { id: target, name: "Taken over" });
        expect(res.status, JSON.stringify(res.body)).to.equal(404);
        expect(res.body).to.include({ code: "BUNDLE_NOT_FOUND", status_code: 404 });
      }
      const viaPrompt = await post(platform.url, "/api/edit-prompt", owner.key, { id, name: "Taken over" });
      expect(viaPrompt.status).to.equal(404);
      expect(viaPrompt.body).to.include({ code: "PROMPT_NOT_FOUND" });
      expect((await stored(id)).name).to.not.equal("Taken over");
    });

    it("refuses a malformed id, bad members and another user's listing with 400, keeping the members", async () => {
      const items = [await newPrompt(owner.key), await newPrompt(owner.key)];
      const id = await newBundle(owner.key, items);
      const bad = await post(platform.url, "/api/edit-bundle", owner.key, { id: "nope", items: "all" });
      expect(bad.status).to.equal(400);
      expect(paths(bad.body)).to.deep.equal(["id", "items"]);
      const theirs = await newPrompt(other.key);
      const stranger = await post(platform.url, "/api/edit-bundle", owner.key, { id, items: [items[0], theirs] });
      expect(stranger.status).to.equal(400);
      expect(paths(stranger.body)).to.deep.equal(["items.1"]);
      expect(await storedItems(id)).to.deep.equal(items);
    });

    it("sends an approved bundle whose members changed back to review; a new order alone keeps it approved", async () => {
      const [a, b, c] = [await newPrompt(owner.key), await newPrompt(owner.key), await newPrompt(owner.key)];
      const id = await newBundle(owner.key, [a, b]);
      await moderate(h, platform.url, id, "approved");
      const reordered = await post(platform.url, "/api/edit-bundle", owner.key, { id, items: [b, a] });
      expect(reordered.body.updated_data.status, JSON.stringify(reordered.body)).to.equal("approved");
      const changed = await post(platform.url, "/api/edit-bundle", owner.key, { id, items: [a, b, c] });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(changed.body.updated_data.status).to.equal("pending");
    });

    it("refuses members that duplicate another of one's bundles, naming it", async () => {
      const [a, b, c] = [await newPrompt(owner.key), await newPrompt(owner.key), await newPrompt(owner.key)];
      const first = await newBundle(owner.key, [a, b]);
      const second = await newBundle(owner.key, [a, c]);
      const res = await post(platform.url, "/api/edit-bundle", owner.key, { id: second, items: [b, a] });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: "DUPLICATE_CONTENT", existingId: first });
      expect(await storedItems(second)).to.deep.equal([a, c]);
    });
  });

  describe("POST /api/query-bundles", () => {
    it("shows an approved bundle of approved members to anyone, others to their owner only, and never elsewhere", async () => {
      const seller = await h.newKey();
      const [a, b] = [await newPrompt(seller.key), await newPrompt(seller.key)];
      await moderate(h, platform.url, a, "approved");
      await moderate(h, platform.url, b, "approved");
      const approved = await newBundle(seller.key, [a, b]);
      await moderate(h, platform.url, approved, "approved");
      const pending = await newBundle(seller.key, [b, a, await newPrompt(seller.key)]);

      const anonymous = await post(platform.url, "/api/query-bundles", null, { userFilter: seller.userId, limit: 50 });
      expect(anonymous.status, JSON.stringify(anonymous.body)).to.equal(200);
      expect(anonymous.body.map((r: any) => r.id)).to.deep.equal([approved]);
      expect(Object.keys(anonymous.body[0]).sort()).to.deep.equal(BUNDLE_RECORD_FIELDS);
      expect(anonymous.body[0].items.map((i: any) => i.id)).to.deep.equal([a, b]);
      expect(Object.keys(anonymous.body[0].items[0]).sort()).to.deep.equal([
        "description",
        "id",
        "kind",
        "name",
        "status",
      ]);

      const own = await post(platform.url, "/api/query-bundles", seller.key, { userFilter: seller.userId, limit: 50 });
      expect(own.body.map((r: any) => r.id).sort()).to.deep.equal([approved, pending].sort());

      const prompts = await post(platform.url, "/api/query-prompts", null, { userFilter: seller.userId, limit: 50 });
      expect(prompts.body.map((r: any) => r.id).sort()).to.deep.equal([a, b].sort());
      // The execution API's marketplace lists prompts and agents, and runs them by id: a bundle has no text to offer.
      const marketplace = await request(h.baseUrl, "POST", "/v1/marketplace/agents", {
        key: other.key,
        body: { number_of_items: 100 },
      });
      expect(marketplace.status).to.equal(200);
      expect(marketplace.body.prompts.map((p: any) => p.id))
        .to.include(a)
        .and.not.include(approved);
      const run = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key: other.key,
        body: {
          agent_config: { agent_name: "buyer", model_name: "gpt-4o-mini", marketplace_prompt_id: approved },
          task: "Say hello",
        },
      });
      expect(run.status, JSON.stringify(run.body)).to.be.within(400, 499);
    });

    it("hides a bundle from buyers while a member is rejected or back in review, and shows it again once approved", async () => {
      const seller = await h.newKey();
      const [a, b] = [await newPrompt(seller.key), await newPrompt(seller.key)];
      await moderate(h, platform.url, a, "approved");
      await moderate(h, platform.url, b, "approved");
      const id = await newBundle(seller.key, [a, b]);
      await moderate(h, platform.url, id, "approved");
      const seen = async () =>
        (await post(platform.url, "/api/query-bundles", other.key, { userFilter: seller.userId })).body.map(
          (r: any) => r.id,
        );
      expect(await seen()).to.deep.equal([id]);
      await moderate(h, platform.url, b, "rejected");
      expect(await seen()).to.deep.equal([]);
      const [mine] = (await post(platform.url, "/api/query-bundles", seller.key, { userFilter: seller.userId })).body;
      expect(mine.items.map((i: any) => i.status)).to.deep.equal(["approved", "rejected"]);
      await moderate(h, platform.url, b, "approved");
      expect(await seen()).to.deep.equal([id]);
      const edited = await post(platform.url, "/api/edit-prompt", seller.key, {
        id: a,
        prompt: `A new text for the member prompt, long enough to be a prompt. ${randomUUID()}`,
      });
      expect(edited.body.updated_data.status).to.equal("pending");
      expect(await seen()).to.deep.equal([]);
    });

    it("keeps a member from being deleted while a bundle holds it; deleting the bundle frees it", async () => {
      const items = [await newPrompt(owner.key), await newPrompt(owner.key)];
      const id = await newBundle(owner.key, items);
      let refused: unknown = null;
      try {
        await h.deps.ds.query(`DELETE FROM prompts WHERE id = $1`, [items[0]]);
      } catch (err) {
        refused = err;
      }
      expect(String(refused)).to.match(/foreign key/);
      await h.deps.ds.query(`DELETE FROM prompts WHERE id = $1`, [id]);
      expect(await storedItems(id)).to.deep.equal([]);
      await h.deps.ds.query(`DELETE FROM prompts WHERE id = $1`, [items[0]]);
    });

    it("filters by search, category and price, and refuses out-of-bounds paging with 400", async () => {
      const seller = await h.newKey();
      const marker = randomUUID().slice(0, 8);
      const id = await newBundle(seller.key, [await newPrompt(seller.key), await newPrompt(seller.key)], {
        name: `Needle ${marker} bundle`,
        category: "Finance",
      });
      await h.deps.ds.query(
        `UPDATE prompts SET status = 'approved' WHERE id = $1 OR id IN (SELECT item_id FROM bundle_items WHERE bundle_id = $1)`,
        [id],
      );
      const found = await post(platform.url, "/api/query-bundles", null, {
        search: marker,
        category: "finance",
        priceFilter: "free",
      });
      expect(found.body.map((r: any) => r.id)).to.deep.equal([id]);
      const paid = await post(platform.url, "/api/query-bundles", null, { search: marker, priceFilter: "paid" });
      expect(paid.body).to.deep.equal([]);
      const bad = await post(platform.url, "/api/query-bundles", null, { limit: 1000, offset: -1, sortBy: "random" });
      expect(bad.status).to.equal(400);
      expect(paths(bad.body)).to.deep.equal(["limit", "offset", "sortBy"]);
    });
  });
});
