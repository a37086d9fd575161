import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../../shared/config";
import { harness, type Harness } from "../../helpers/harness";
import { moderate, post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";

/** A valid `POST /api/add-agent` body, unique by a marker (duplicates are refused). */
function agentBody(overrides: Record<string, unknown> = {}): Record<string, any> {
  const marker = randomUUID().slice(0, 8);
  return {
    name: `Changelog agent ${marker}`,
    agent: `You are an agent that writes changelogs from lists of merged changes, grouped by area, in plain words. Reference ${marker}.`,
    description: "Turns merged changes into a changelog people read.",
    useCases: [{ title: "Weekly changelog", description: "Summarise a week of merged changes" }],
    tags: "writing,release",
    category: "content",
    language: "python",
    requirements: [{ package: "swarms", installation: "pip install swarms" }],
    agent_config: { agent_name: "changelog", model_name: "gpt-4o-mini", system_prompt: "Write changelogs." },
    ...overrides,
  };
}

function paths(body: any): string[] {
  return body.errors.map((e: { path: string }) => e.path).sort();
}

const AGENT_RECORD_FIELDS = [
  "agent",
  "agent_config",
  "category",
  "created_at",
  "description",
  "file_path",
  "id",
  "image_url",
  "is_free",
  "language",
  "links",
  "name",
  "price",
  "price_usd",
  "requirements",
  "seller_wallet_address",
  "status",
  "tags",
  "updated_at",
  "use_cases",
  "user_id",
];

describe("agent listings: POST /api/add-agent, /api/edit-agent, /api/query-agents", function () {
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
  const addAgent = (key: string | null, body: Record<string, unknown>) =>
    post(platform.url, "/api/add-agent", key, body);
  const newAgent = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await addAgent(key, agentBody(overrides));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.id as string;
  };

  describe("POST /api/add-agent", () => {
    it("stores an agent listing waiting for review, with its definition, requirements and language", async () => {
      const body = agentBody();
      const res = await addAgent(owner.key, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal(["id", "listing_url", "success"]);
      expect(res.body.listing_url).to.equal(`${config.http.platformUrl}/agent/${res.body.id}`);
      const row = await stored(res.body.id);
      expect(row).to.include({
        kind: "agent",
        user_id: owner.userId,
        name: body.name,
        prompt: body.agent,
        language: "python",
        status: "pending",
        is_free: true,
        tokenized_on: false,
        source: "api",
      });
      expect(row.requirements).to.deep.equal(body.requirements);
      // The definition is stored as the agent API validated it, defaults included.
      expect(row.agent_config).to.include({ agent_name: "changelog", model_name: "gpt-4o-mini", max_loops: 1 });
    });

    it("refuses a caller without credentials with the platform's 401", async () => {
      const res = await addAgent(null, agentBody());
      expect(res.status).to.equal(401);
      expect(res.body).to.include({ status_code: 401 });
    });

    it("reports every bad field at once as a 400 Validation error, never a 500", async () => {
      const res = await addAgent(owner.key, {
        name: "x",
        agent: "hey",
        useCases: "many",
        tags: 7,
        requirements: [{ package: "" }, "numpy"],
        agent_config: { model_name: 42, max_loops: 0 },
        tokenized_on: true,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.include({ error: "Validation error", code: "VALIDATION_ERROR", status_code: 400 });
      expect(paths(res.body)).to.deep.equal(
        [
          "agent",
          "agent_config.max_loops",
          "agent_config.model_name",
          "description",
          "name",
          "requirements.0.installation",
          "requirements.0.package",
          "requirements.1",
          "tags",
          "tokenized_on",
          "useCases",
        ].sort(),
      );
    });

    it("holds a paid agent to the prompt rules: a price above 0, and a trusted seller", async () => {
      const noPrice = await addAgent(owner.key, agentBody({ is_free: false }));
      expect(noPrice.status).to.equal(400);
      expect(paths(noPrice.body)).to.deep.equal(["price_usd"]);
      const untrusted = await addAgent(owner.key, agentBody({ is_free: false, price_usd: 4 }));
      expect(untrusted.status, JSON.stringify(untrusted.body)).to.equal(403);
      expect(untrusted.body).to.include({ error: "Content validation failed", status_code: 403 });
    });

    it("refuses the same definition twice from one user, naming the first, but lets a prompt share its text", async () => {
      const body = agentBody();
      const first = await addAgent(owner.key, body);
      expect(first.status).to.equal(200);
      const again = await addAgent(owner.key, {
        ...body,
        name: "Another name",
        agent: `  ${body.agent.toUpperCase()} `,
      });
      expect(again.status).to.equal(400);
      expect(again.body).to.include({ code: "DUPLICATE_CONTENT", existingId: first.body.id });
      const asPrompt = await post(platform.url, "/api/add-prompt", owner.key, promptBody({ prompt: body.agent }));
      expect(asPrompt.status, JSON.stringify(asPrompt.body)).to.equal(200);
      const otherUser = await addAgent(other.key, body);
      expect(otherUser.status).to.equal(200);
    });
  });

  describe("daily limits", () => {
    it("counts agents against the prompt routes' daily limit and answers its 429", async () => {
      const limited = await promptsPlatform(h, { dailyLimits: { freeContent: 1 } });
      try {
        const user = await h.newKey();
        expect((await post(limited.url, "/api/add-agent", user.key, agentBody())).status).to.equal(200);
        const refused = await post(limited.url, "/api/add-agent", user.key, agentBody());
        expect(refused.status).to.equal(429);
        expect(refused.body).to.include({ error: "Daily limit exceeded", status_code: 429 });
        expect(refused.body).to.have.property("resetTime");
      } finally {
        await limited.close();
      }
    });
  });

  describe("POST /api/edit-agent", () => {
    it("updates one's own agent and answers the stored Agent record", async () => {
      const id = await newAgent(owner.key);
      const res = await post(platform.url, "/api/edit-agent", owner.key, {
        id,
        description: "A better description of the changelog agent.",
        requirements: [],
        language: "typescript",
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ success: true, id });
      expect(Object.keys(res.body.updated_data).sort()).to.deep.equal(AGENT_RECORD_FIELDS);
      expect(res.body.updated_data).to.include({
        language: "typescript",
        description: "A better description of the changelog agent.",
      });
      expect(res.body.updated_data.requirements).to.deep.equal([]);
      expect((await stored(id)).language).to.equal("typescript");
    });

    it("is 404 for another user's agent, an unknown id, and a prompt; edit-prompt is 404 for an agent", async () => {
      const id = await newAgent(owner.key);
      const prompt = await post(platform.url, "/api/add-prompt", owner.key, promptBody());
      for (const [key, target] of [
        [other.key, id],
        [owner.key, randomUUID()],
        [owner.key, prompt.body.id],
      ]) {
        const res = await post(platform.url, "/api/edit-agent", key, { id: target, name: "Taken over" });
        expect(res.status, JSON.stringify(res.body)).to.equal(404);
        expect(res.body).to.include({ code: "AGENT_NOT_FOUND", status_code: 404 });
      }
      const viaPrompt = await post(platform.url, "/api/edit-prompt", owner.key, { id, name: "Taken over" });
      expect(viaPrompt.status).to.equal(404);
      expect(viaPrompt.body).to.include({ code: "PROMPT_NOT_FOUND" });
      expect((await stored(id)).name).to.not.equal("Taken over");
    });

    it("refuses a malformed id and bad types with 400", async () => {
      const res = await post(platform.url, "/api/edit-agent", owner.key, { id: "nope", requirements: "numpy" });
      expect(res.status).to.equal(400);
      expect(paths(res.body)).to.deep.equal(["id", "requirements"]);
    });

    it("sends an approved agent whose definition changed back to review", async () => {
      const id = await newAgent(owner.key);
      await moderate(h, platform.url, id, "approved");
      const res = await post(platform.url, "/api/edit-agent", owner.key, {
        id,
        agent: `You now write release notes, grouped by area, in plain words. ${randomUUID()}`,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.updated_data.status).to.equal("pending");
    });
  });

  describe("POST /api/query-agents", () => {
    it("shows approved agents to anyone, pending ones to their owner only, and never prompts", async () => {
      const seller = await h.newKey();
      const approved = await newAgent(seller.key, { category: "Research" });
      const pending = await newAgent(seller.key, { category: "Research" });
      await moderate(h, platform.url, approved, "approved");
      const prompt = await post(platform.url, "/api/add-prompt", seller.key, promptBody());
      await moderate(h, platform.url, prompt.body.id, "approved");

      const anonymous = await post(platform.url, "/api/query-agents", null, { userFilter: seller.userId, limit: 50 });
      expect(anonymous.status, JSON.stringify(anonymous.body)).to.equal(200);
      expect(anonymous.body).to.be.an("array");
      expect(anonymous.body.map((r: any) => r.id)).to.deep.equal([approved]);
      expect(Object.keys(anonymous.body[0]).sort()).to.deep.equal(AGENT_RECORD_FIELDS);

      const own = await post(platform.url, "/api/query-agents", seller.key, { userFilter: seller.userId, limit: 50 });
      expect(own.body.map((r: any) => r.id).sort()).to.deep.equal([approved, pending].sort());

      const prompts = await post(platform.url, "/api/query-prompts", seller.key, { userFilter: seller.userId });
      expect(prompts.body.map((r: any) => r.id)).to.deep.equal([prompt.body.id]);
    });

    it("hides a paid agent's definition from everyone but its owner", async () => {
      const seller = await h.newKey();
      // A paid listing needs a trusted seller: mark the agent paid after it is stored.
      const id = await newAgent(seller.key);
      await h.deps.ds.query(`UPDATE prompts SET is_free = false, price_usd = 3, price = 0.02 WHERE id = $1`, [id]);
      await moderate(h, platform.url, id, "approved");
      const [seen] = (await post(platform.url, "/api/query-agents", other.key, { userFilter: seller.userId })).body;
      expect(seen).to.include({ id, agent: "", agent_config: null, is_free: false });
      const [mine] = (await post(platform.url, "/api/query-agents", seller.key, { userFilter: seller.userId })).body;
      expect(mine.agent).to.have.length.above(5);
      expect(mine.agent_config).to.include({ agent_name: "changelog" });
    });

    it("filters by search, category and price, and refuses out-of-bounds paging with 400", async () => {
      const seller = await h.newKey();
      const marker = randomUUID().slice(0, 8);
      const id = await newAgent(seller.key, { name: `Needle ${marker} agent`, category: "Finance" });
      await moderate(h, platform.url, id, "approved");
      const found = await post(platform.url, "/api/query-agents", null, {
        search: marker,
        category: "finance",
        priceFilter: "free",
      });
      expect(found.body.map((r: any) => r.id)).to.deep.equal([id]);
      const paid = await post(platform.url, "/api/query-agents", null, { search: marker, priceFilter: "paid" });
      expect(paid.body).to.deep.equal([]);
      const bad = await post(platform.url, "/api/query-agents", null, { limit: 1000, offset: -1, sortBy: "random" });
      expect(bad.status).to.equal(400);
      expect(paths(bad.body)).to.deep.equal(["limit", "offset", "sortBy"]);
    });
  });
});
