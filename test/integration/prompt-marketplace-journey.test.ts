import { randomUUID } from "node:crypto";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { pagesBrowser } from "../helpers/browser";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { sessionToken } from "../helpers/platform-fixtures";
import { makeTrusted, moderate, post, promptBody } from "../helpers/prompts";
import { callsMentioning } from "../helpers/swarm";

/**
 * A prompt's whole way through the running service: created with `POST /api/add-prompt` on the platform, found
 * with `POST /api/query-prompts`, shown on its listing page in a headless Chromium, and run by an agent on the execution API
 * through `marketplace_prompt_id`, checked against what the model was sent (the simulator's journal).
 */
describe("prompt marketplace end to end: add-prompt → query-prompts → listing page → marketplace_prompt_id", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  /** The listing page of a prompt, signed in as `userId` when given. */
  async function listingPage(id: string, userId?: string): Promise<Page> {
    const page = await newPage({ sessionToken: userId ? await sessionToken(userId) : undefined });
    const res = await page.goto(`/prompt/${id}`);
    expect(res!.status()).to.equal(200);
    return page;
  }

  /** The prompt query, as anyone (no credentials) or as the holder of `key`. */
  async function search(text: string, key?: string): Promise<any[]> {
    const res = await post(h.platformUrl, "/api/query-prompts", key ?? null, { search: text });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  }

  /** An agent completion with an agent on a marketplace prompt and a `system_prompt` of its own; returns what the model was sent. */
  async function runOnPrompt(
    key: string,
    promptId: string,
  ): Promise<{ calls: any[]; ownPrompt: string; jobId: string }> {
    const ownPrompt = `The request's own system prompt ${randomUUID()}`;
    const task = `journey-${randomUUID()}`;
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: {
          agent_name: "Shopper",
          system_prompt: ownPrompt,
          marketplace_prompt_id: promptId,
          max_tokens: 200,
        },
        task,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.success).to.equal(true);
    return { calls: callsMentioning(h, task), ownPrompt, jobId: res.body.job_id };
  }

  it("A prompt created through POST /api/add-prompt is found by POST /api/query-prompts, shown on its listing page, and used by an agent through marketplace_prompt_id", async () => {
    const seller = await h.newKey();
    const marker = randomUUID().slice(0, 8);
    const body = promptBody({
      name: `Grant proposal coach ${marker}`,
      description: `Helps researchers shape grant proposals (${marker}).`,
    });

    const created = await post(h.platformUrl, "/api/add-prompt", seller.key, body);
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const { id } = created.body;
    expect(created.body).to.include({ success: true, tokenized: false });
    expect(created.body.listing_url).to.match(new RegExp(`/prompt/${id}$`));

    // While it waits for review, the prompt query shows it to its owner only.
    expect(await search(`proposals (${marker})`)).to.deep.equal([]);
    expect((await search(`proposals (${marker})`, seller.key)).map((p) => [p.id, p.status])).to.deep.equal([
      [id, "pending"],
    ]);

    // An agent on it (its owner's, while it waits for review): the model gets the prompt, not the request's system_prompt.
    const { calls, ownPrompt } = await runOnPrompt(seller.key, id);
    expect(calls).to.have.length(1);
    expect(calls[0].messages[0]).to.deep.equal({ role: "system", content: body.prompt });
    expect(JSON.stringify(calls[0].messages)).not.to.include(ownPrompt);

    // Once a moderator approves it, the prompt query, as anyone: found by a word of its description, with its text (it is free).
    await moderate(h, h.platformUrl, id);
    const found = await search(`proposals (${marker})`);
    expect(found.map((p) => p.id)).to.deep.equal([id]);
    expect(found[0]).to.include({
      name: body.name,
      prompt: body.prompt,
      is_free: true,
      status: "approved",
      user_id: seller.userId,
    });

    // Its listing page, as anyone.
    const page = await listingPage(id);
    expect(await page.locator("h1").innerText()).to.equal(body.name);
    expect(await page.locator('[data-field="prompt"]').innerText()).to.equal(body.prompt);
    expect(await page.locator('[data-field="price"]').innerText()).to.equal("Free");
  });

  it("a paid prompt is used by another user's agent through marketplace_prompt_id, while the prompt query and its page keep its text from them", async () => {
    const seller = await h.newKey();
    await makeTrusted(h, h.platformUrl, seller.key); // paid prompts need a seller others rated well
    const marker = randomUUID().slice(0, 8);
    // An approved prompt is anyone's to use; only a moderator approves (the owner's `status` is a request).
    const body = promptBody({ name: `Pitch deck critic ${marker}`, is_free: false, price_usd: 12 });
    const created = await post(h.platformUrl, "/api/add-prompt", seller.key, body);
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const { id } = created.body;
    await moderate(h, h.platformUrl, id);
    const buyer = await h.newKey();

    // The prompt query: the buyer (and anyone) gets the record and its converted price, without the text; its owner gets the text.
    for (const key of [buyer.key, undefined]) {
      const [record] = await search(marker, key);
      expect(record).to.include({
        id,
        name: body.name,
        prompt: "",
        is_free: false,
        price_usd: 12,
        price: 0.08,
        status: "approved",
      });
    }
    expect((await search(marker, seller.key))[0].prompt).to.equal(body.prompt);

    // The listing page: the owner sees the text; the buyer and anyone see that it is paid, not the text.
    const ownerPage = await listingPage(id, seller.userId);
    expect(await ownerPage.locator('[data-field="prompt"]').innerText()).to.equal(body.prompt);
    for (const viewer of [buyer.userId, undefined]) {
      const page = await listingPage(id, viewer);
      expect(await page.locator("h1").innerText()).to.equal(body.name);
      expect(await page.locator('[data-field="prompt-hidden"]').count()).to.equal(1);
      expect(await page.locator('[data-field="prompt"]').count()).to.equal(0);
      expect(await page.content()).not.to.include(body.prompt);
    }

    // The buyer's agent runs on it: the model gets the text the buyer never saw.
    const { calls, ownPrompt, jobId } = await runOnPrompt(buyer.key, id);
    expect(calls).to.have.length(1);
    expect(calls[0].messages[0]).to.deep.equal({ role: "system", content: body.prompt });
    expect(JSON.stringify(calls[0].messages)).not.to.include(ownPrompt);
    // Nor does the text come back to the buyer through the run's stored request.
    const logs = await request(h.baseUrl, "GET", "/v1/swarm/logs?limit=5", { key: buyer.key });
    expect(JSON.stringify(logs.body)).to.include(jobId).and.not.include(body.prompt);
  });
});
