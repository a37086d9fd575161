import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { pagesBrowser } from "../../helpers/browser";
import { harness, type Harness } from "../../helpers/harness";
import { moderate, post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";

/** A bundle's listing page (`listing_url`) in a real headless Chromium with JavaScript turned off. */
describe("bundle listing page in a browser", function () {
  this.timeout(120_000);
  let h: Harness;
  let platform: PromptsPlatform;
  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
  });
  after(() => platform?.close());
  const { newPage } = pagesBrowser(() => platform.url);

  async function approvedPrompt(key: string, name: string): Promise<string> {
    const res = await post(platform.url, "/api/add-prompt", key, promptBody({ name }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await moderate(h, platform.url, res.body.id, "approved");
    return res.body.id;
  }

  it("shows an approved bundle and its members in order, each linking to its page; a hidden one is a 404 page", async () => {
    const seller = await h.newKey();
    const first = await approvedPrompt(seller.key, "Changelog <b>writer</b>");
    const second = await approvedPrompt(seller.key, "Announcement drafter");
    const name = `Release kit <script>alert(1)</script> ${randomUUID().slice(0, 8)}`;
    const published = await post(platform.url, "/api/v1/publish/bundle", seller.key, {
      name,
      items: [second, first],
      description: "Everything to ship release notes, from changelog to announcement.",
      useCases: [{ title: "Release day", description: "From merged changes to the announcement" }],
      tags: "writing, release",
    });
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    const path = new URL(published.body.listing_url).pathname;
    expect(path).to.equal(`/bundle/${published.body.id}`);

    const page = await newPage();
    expect((await page.goto(path))!.status(), "waiting for review: not public").to.equal(404);

    await moderate(h, platform.url, published.body.id, "approved");
    const res = await page.goto(path);
    expect(res!.status()).to.equal(200);
    expect(await page.locator("h1").innerText()).to.equal(name);
    const items = page.locator('[data-field="items"] a');
    expect(await items.allInnerTexts()).to.deep.equal(["Announcement drafter", "Changelog <b>writer</b>"]);
    expect(await items.nth(1).getAttribute("href")).to.equal(`/prompt/${first}`);
    expect(await page.locator('[data-field="price"]').innerText()).to.equal("Free");

    await moderate(h, platform.url, first, "rejected");
    expect((await page.goto(path))!.status(), "a rejected member hides the bundle").to.equal(404);
    expect((await page.goto("/bundle/not-a-uuid"))!.status()).to.equal(404);
  });
});
