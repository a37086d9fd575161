import { randomUUID } from "node:crypto";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { pagesBrowser } from "../../helpers/browser";
import { createPrompt } from "../../helpers/factories";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { sessionUser } from "../../helpers/platform-fixtures";

/**
 * The marketplace home (`GET /` on the platform) in a real Chromium with JavaScript off: search,
 * each filter and sort, pagination and bad parameters. Every listing of a test carries a marker of
 * its own in its name, and every search names the marker, so listings of other tests never count.
 */
describe("marketplace home page in a browser", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  const marker = () => `mk${randomUUID().slice(0, 8)}`;
  const names = (page: Page) => page.locator('[data-field="listing-name"]').allInnerTexts();

  /** Rates a listing through the rating route, once by each of `ratings.length` new users. */
  async function rate(id: string, ratings: number[]): Promise<void> {
    for (const rating of ratings) {
      const rater = await sessionUser(h.deps.ds, "rater");
      const res = await request(h.platformUrl, "POST", "/api/rate-prompt", {
        headers: { authorization: `Bearer ${rater.token}` },
        body: { id, rating },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  }

  async function search(params: Record<string, string>, status = 200): Promise<Page> {
    const page = await newPage();
    const res = await page.goto(`/?${new URLSearchParams(params)}`);
    expect(res!.status()).to.equal(status);
    return page;
  }

  it("is the marketplace: a search form with a label for every field, and approved listings only", async () => {
    const m = marker();
    const seller = await sessionUser(h.deps.ds, "seller");
    await createPrompt(h.deps.ds, seller.id, { name: `${m} approved`, description: "Summarises meetings" });
    await createPrompt(h.deps.ds, seller.id, { name: `${m} pending`, status: "pending" });
    await createPrompt(h.deps.ds, seller.id, { name: `${m} rejected`, status: "rejected" });

    const page = await newPage();
    const res = await page.goto("/");
    expect(res!.status()).to.equal(200);
    expect(await page.title()).to.equal("Marketplace · Apiary");
    expect(await page.locator("main h1").innerText()).to.equal("Marketplace");
    expect(await page.getByRole("search").count()).to.equal(1);
    for (const label of ["Search names and descriptions", "Kind", "Category", "Price", "Sort by"])
      expect(await page.getByLabel(label, { exact: true }).count(), label).to.equal(1);

    // Searching through the form itself: a GET of its fields.
    await page.getByLabel("Search names and descriptions").fill(m);
    await Promise.all([page.waitForURL(/\?/), page.getByRole("button", { name: "Search" }).click()]);
    expect(new URL(page.url()).searchParams.get("q")).to.equal(m);
    expect(await names(page)).to.deep.equal([`${m} approved`]);
    expect(await page.locator('[data-field="listing-description"]').innerText()).to.equal("Summarises meetings");

    // Signed in, the owner sees nothing more here: their pending items are on their "mine" page.
    const own = await newPage({ sessionToken: seller.token });
    await own.goto(`/?q=${m}`);
    expect(await names(own)).to.deep.equal([`${m} approved`]);
  });

  it("searches names and descriptions as text: LIKE's own characters match only themselves", async () => {
    const m = marker();
    const seller = await sessionUser(h.deps.ds, "seller");
    await createPrompt(h.deps.ds, seller.id, { name: `${m} 100% honest`, description: "plain" });
    await createPrompt(h.deps.ds, seller.id, {
      name: `${m} 100 honest`,
      description: "has the words Quiet_Mode inside",
    });
    await createPrompt(h.deps.ds, seller.id, { name: `${m} other`, description: "QuietXMode" });

    expect(await names(await search({ q: `${m} 100%` }))).to.deep.equal([`${m} 100% honest`]);
    const underscore = await search({ q: "quiet_mode" });
    expect((await names(underscore)).filter((n) => n.startsWith(m))).to.deep.equal([`${m} 100 honest`]);
  });

  it("filters by kind, category, tags and price", async () => {
    const m = marker();
    const seller = await sessionUser(h.deps.ds, "seller");
    const listing = (name: string, fields: Parameters<typeof createPrompt>[2]) =>
      createPrompt(h.deps.ds, seller.id, { name: `${m} ${name}`, ...fields });
    await listing("free prompt", { category: "Writing", tags: "release, notes" });
    await listing("paid prompt", { category: "Finance", tags: "release", is_free: false, price_usd: 4 });
    await listing("free agent", { kind: "agent", category: "writing", tags: "Notes,agents" });

    const found = async (params: Record<string, string>) => (await names(await search({ q: m, ...params }))).sort();
    expect(await found({})).to.deep.equal([`${m} free agent`, `${m} free prompt`, `${m} paid prompt`]);
    expect(await found({ kind: "agent" })).to.deep.equal([`${m} free agent`]);
    expect(await found({ kind: "prompt" })).to.deep.equal([`${m} free prompt`, `${m} paid prompt`]);
    expect(await found({ category: "WRITING" })).to.deep.equal([`${m} free agent`, `${m} free prompt`]);
    expect(await found({ tags: "release" })).to.deep.equal([`${m} free prompt`, `${m} paid prompt`]);
    expect(await found({ tags: "notes, RELEASE" })).to.deep.equal([`${m} free prompt`]);
    expect(await found({ tags: "note" })).to.deep.equal([]);
    expect(await found({ price: "paid" })).to.deep.equal([`${m} paid prompt`]);
    expect(await found({ price: "free" })).to.deep.equal([`${m} free agent`, `${m} free prompt`]);

    // Each listing links to its own page: an agent to /agent/{id}, a prompt to /prompt/{id}.
    const page = await search({ q: m, kind: "agent" });
    expect(await page.locator('[data-field="listing-kind"]').innerText()).to.equal("Agent");
    await Promise.all([page.waitForURL(/\/agent\//), page.getByRole("link", { name: `${m} free agent` }).click()]);
    expect(await page.locator("main h1").innerText()).to.equal(`${m} free agent`);
    expect(await page.locator('[data-field="kind"]').innerText()).to.equal("Agent");
  });

  it("sorts by newest, popular and rating as the prompt query does", async () => {
    const m = marker();
    const seller = await sessionUser(h.deps.ds, "seller");
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const old = await createPrompt(h.deps.ds, seller.id, { name: `${m} old`, created_at: at(30) });
    const middle = await createPrompt(h.deps.ds, seller.id, { name: `${m} middle`, created_at: at(20) });
    await createPrompt(h.deps.ds, seller.id, { name: `${m} new`, created_at: at(10) });
    await rate(old, [5]); // one rating, the best average
    await rate(middle, [3, 4]); // the most ratings, a lower average

    expect(await names(await search({ q: m }))).to.deep.equal([`${m} new`, `${m} middle`, `${m} old`]);
    expect(await names(await search({ q: m, sort: "popular" }))).to.deep.equal([`${m} middle`, `${m} old`, `${m} new`]);
    expect(await names(await search({ q: m, sort: "rating" }))).to.deep.equal([`${m} old`, `${m} middle`, `${m} new`]);
    const rated = await search({ q: m, sort: "rating" });
    expect(await rated.locator('[data-field="listing-rating"]').allInnerTexts()).to.deep.equal([
      "5.0 / 5 (1 rating)",
      "3.5 / 5 (2 ratings)",
    ]);
  });

  it("pages through results twelve at a time, keeping the search in the links", async () => {
    const m = marker();
    const seller = await sessionUser(h.deps.ds, "seller");
    for (let i = 0; i < 13; i++)
      await createPrompt(h.deps.ds, seller.id, {
        name: `${m} item ${String(i).padStart(2, "0")}`,
        created_at: new Date(Date.now() - i * 60_000).toISOString(),
      });

    const page = await search({ q: m });
    const first = await names(page);
    expect(first).to.have.length(12);
    expect(first[0]).to.equal(`${m} item 00`);
    expect(await page.locator('[data-field="previous-page"]').count()).to.equal(0);
    await Promise.all([page.waitForURL(/page=2/), page.getByRole("link", { name: "Next page" }).click()]);
    expect(new URL(page.url()).searchParams.get("q")).to.equal(m);
    expect(await names(page)).to.deep.equal([`${m} item 12`]);
    expect(await page.locator('[data-field="next-page"]').count()).to.equal(0);
    expect(await page.locator('[data-field="page-number"]').innerText()).to.equal("Page 2");
    await Promise.all([
      page.waitForURL((url) => !url.search.includes("page=")),
      page.getByRole("link", { name: "Previous page" }).click(),
    ]);
    expect(await names(page)).to.deep.equal(first);
  });

  it("answers a query string it cannot read with a 400 page naming each problem", async () => {
    const problems = async (query: string) => {
      const page = await newPage();
      const res = await page.goto(`/?${query}`);
      expect(res!.status(), query).to.equal(400);
      expect(res!.headers()["content-type"]).to.match(/^text\/html/);
      return page.locator('[data-field="query-problems"] li').allInnerTexts();
    };
    expect(await problems("sort=cheapest")).to.deep.equal(["'sort' must be one of [newest, oldest, popular, rating]"]);
    expect(await problems("kind=tool&price=cheap")).to.deep.equal([
      "'kind' must be one of [all, prompt, agent, bundle]",
      "'price' must be one of [all, free, paid]",
    ]);
    // The form always sends a choice: an empty one is not a default, it is a mistake.
    expect(await problems("kind=&sort=")).to.deep.equal([
      "'kind' must be one of [all, prompt, agent, bundle]",
      "'kind' is not allowed to be empty",
      "'sort' must be one of [newest, oldest, popular, rating]",
      "'sort' is not allowed to be empty",
    ]);
    expect(await problems("page=0")).to.deep.equal(["'page' must be greater than or equal to 1"]);
    expect(await problems("page=1001")).to.deep.equal(["'page' must be less than or equal to 1000"]);
    expect(await problems("page=two")).to.deep.equal(["'page' must be a number"]);
    expect(await problems(`q=${"x".repeat(101)}`)).to.deep.equal([
      "'q' length must be less than or equal to 100 characters long",
    ]);
    expect(await problems("tags=a,b,c,d,e,f")).to.deep.equal(["'tags' may name at most 5 tags"]);
    expect(await problems("q=a&q=b")).to.deep.equal(["'q' is given more than once"]);
    expect(await problems("userFilter=x")).to.deep.equal(["'userFilter' is not a parameter of this page"]);
    expect(await problems("q=a%00b")).to.deep.equal([
      "'q' holds a character that cannot be searched for (a NUL character or a broken surrogate)",
    ]);
    // A search made of pattern characters alone is a plain search, not an error (and no 500).
    expect((await names(await search({ q: "%_\\" }))).length).to.be.at.most(12);
  });
});
