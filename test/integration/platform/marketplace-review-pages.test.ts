import { expect } from "chai";
import type { Page } from "playwright-core";
import { config } from "../../../shared/config";
import { setUserRole } from "../../../shared/db/user-store";
import { pagesBrowser } from "../../helpers/browser";
import { createPrompt } from "../../helpers/factories";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { sessionUser } from "../../helpers/platform-fixtures";

/**
 * Review on the pages, in a real Chromium with JavaScript off: an owner's view of their listing
 * while it waits or after a rejection, agent listings' own pages, and the moderators' queue
 * deciding listings that then show (or not) on the marketplace home.
 */
describe("marketplace review pages in a browser", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  const text = (page: Page, field: string) => page.locator(`[data-field="${field}"]`).innerText();
  // Queue items are made long waiting, so they are in the queue's first page whatever other tests left pending.
  const longAgo = "2001-02-03T04:05:06Z";

  async function moderator() {
    const user = await sessionUser(h.deps.ds, "moderator");
    await setUserRole(h.deps.ds, user.id, "moderator");
    return user;
  }

  async function homeFinds(name: string): Promise<boolean> {
    const page = await newPage();
    await page.goto(`/?${new URLSearchParams({ q: name })}`);
    return (await page.locator('[data-field="listing-name"]').allInnerTexts()).includes(name);
  }

  describe("listing pages", () => {
    it("show the owner their pending or rejected listing with its status and the moderator's reason; anyone else a 404", async () => {
      const owner = await sessionUser(h.deps.ds, "seller");
      const stranger = await sessionUser(h.deps.ds, "stranger");
      const pending = await createPrompt(h.deps.ds, owner.id, { name: "Waiting prompt", status: "pending" });
      const rejected = await createPrompt(h.deps.ds, owner.id, {
        name: "Rejected prompt",
        status: "rejected",
        moderation_reason: "Too vague to be useful",
      });

      const own = await newPage({ sessionToken: owner.token });
      expect((await own.goto(`/prompt/${pending}`))!.status()).to.equal(200);
      expect(await text(own, "status")).to.equal("pending");
      expect(await text(own, "review-notice")).to.include("waits for a moderator's review");
      expect((await own.goto(`/prompt/${rejected}`))!.status()).to.equal(200);
      expect(await text(own, "status")).to.equal("rejected");
      expect(await text(own, "review-reason")).to.equal("Too vague to be useful");

      for (const token of [stranger.token, undefined]) {
        const other = await newPage(token ? { sessionToken: token } : {});
        for (const id of [pending, rejected]) {
          const res = await other.goto(`/prompt/${id}`);
          expect(res!.status()).to.equal(404);
          expect(await other.content()).not.to.include("Too vague");
        }
      }
    });

    it("give an add-agent listing a page that says it is an agent, at its listing_url; its old /prompt/ address leads there", async () => {
      const owner = await sessionUser(h.deps.ds, "seller");
      const res = await request(h.platformUrl, "POST", "/api/add-agent", {
        headers: { authorization: `Bearer ${owner.token}` },
        body: {
          name: "Changelog agent",
          agent: "You write changelogs from lists of merged changes, grouped by area.",
          description: "Turns merged changes into a changelog",
          tags: "writing,release",
          useCases: [{ title: "Weekly", description: "Summarise the week" }],
          language: "python",
          requirements: [{ package: "swarms", installation: "pip install swarms" }],
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { id, listing_url } = res.body;
      expect(listing_url).to.equal(`${config.http.platformUrl}/agent/${id}`);

      const page = await newPage({ sessionToken: owner.token });
      expect((await page.goto(`/agent/${id}`))!.status()).to.equal(200);
      expect(await text(page, "kind")).to.equal("Agent");
      expect(await page.locator("main h1").innerText()).to.equal("Changelog agent");
      expect(await text(page, "status")).to.equal("pending");
      expect(await text(page, "language")).to.equal("python");
      expect(await text(page, "requirements")).to.equal("swarms: pip install swarms");
      expect(await page.getByRole("heading", { name: "Agent definition" }).count()).to.equal(1);

      const old = await page.goto(`/prompt/${id}`);
      expect(old!.status()).to.equal(200);
      expect(new URL(page.url()).pathname).to.equal(`/agent/${id}`);
      expect(old!.request().redirectedFrom()!.url()).to.equal(`${h.platformUrl}/prompt/${id}`);
      // A stranger gets neither while it waits; a prompt is not an agent.
      const stranger = await newPage();
      expect((await stranger.goto(`/agent/${id}`))!.status()).to.equal(404);
      const prompt = await createPrompt(h.deps.ds, owner.id, { name: "Just a prompt" });
      expect((await stranger.goto(`/agent/${prompt}`))!.status()).to.equal(404);
    });
  });

  describe("the review queue", () => {
    it("lets a moderator approve a listing, which then shows on the home page", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const mod = await moderator();
      const name = `Queue approve ${seller.id.slice(0, 8)}`;
      const id = await createPrompt(h.deps.ds, seller.id, { name, status: "pending", created_at: longAgo });
      expect(await homeFinds(name)).to.equal(false);

      const page = await newPage({ sessionToken: mod.token });
      expect((await page.goto("/platform/moderation"))!.status()).to.equal(200);
      const item = page.locator(`[data-listing-id="${id}"]`);
      expect(await item.locator('[data-field="listing-name"]').innerText()).to.equal(name);
      await Promise.all([
        page.waitForURL(/done=approved/),
        item.getByRole("button", { name: `Approve ${name}` }).click(),
      ]);
      expect(await text(page, "notice")).to.include("Approved");
      expect(await page.locator(`[data-listing-id="${id}"]`).count()).to.equal(0);
      const [row] = await h.deps.ds.query(`SELECT status, moderated_by FROM prompts WHERE id = $1`, [id]);
      expect(row).to.deep.equal({ status: "approved", moderated_by: mod.id });
      expect(await homeFinds(name)).to.equal(true);
    });

    it("finds waiting listings by name or description, with LIKE's characters taken literally, and bounds the search", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const mod = await moderator();
      const mark = seller.id.slice(0, 8);
      const wanted = await createPrompt(h.deps.ds, seller.id, { name: `Find me ${mark} 100%`, status: "pending" });
      const other = await createPrompt(h.deps.ds, seller.id, { name: `Find me ${mark} 1000`, status: "pending" });
      const page = await newPage({ sessionToken: mod.token });
      const shown = async (q: string) => {
        const res = await page.goto(`/platform/moderation?q=${encodeURIComponent(q)}`);
        expect(res!.status(), q).to.equal(200);
        return page
          .locator("[data-listing-id]")
          .evaluateAll((els) => els.map((e) => e.getAttribute("data-listing-id")));
      };
      expect(await shown(`${mark} 100%`)).to.deep.equal([wanted]);
      expect((await shown(`find ME ${mark}`)).sort()).to.deep.equal([wanted, other].sort());
      expect(await page.getByLabel("Find waiting listings by name or description").inputValue()).to.equal(
        `find ME ${mark}`,
      );
      for (const bad of [`q=${"x".repeat(101)}`, "q=a&q=b", "q=a%00b"]) {
        const res = await page.goto(`/platform/moderation?${bad}`);
        expect(res!.status(), bad).to.equal(400);
        expect(await text(page, "error"), bad).to.include("at most 100 characters");
      }
    });

    it("rejects only with a reason, which the owner then reads; the listing stays off the home page", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const mod = await moderator();
      const name = `Queue reject ${seller.id.slice(0, 8)}`;
      const id = await createPrompt(h.deps.ds, seller.id, { name, status: "pending", created_at: longAgo });

      const page = await newPage({ sessionToken: mod.token });
      await page.goto("/platform/moderation");
      const reject = () =>
        page
          .locator(`[data-listing-id="${id}"]`)
          .getByRole("button", { name: `Reject ${name}` })
          .click();
      // No reason: refused, and the listing still waits.
      const refused = page.waitForResponse((r) => r.request().method() === "POST");
      await reject();
      expect((await refused).status()).to.equal(400);
      expect(await text(page, "error")).to.equal("Give a reason to reject a listing: its owner reads it.");
      const [waiting] = await h.deps.ds.query(`SELECT status FROM prompts WHERE id = $1`, [id]);
      expect(waiting.status).to.equal("pending");

      await page.getByLabel("Reason (required to reject; its owner reads it)").first().waitFor();
      await page.locator(`[data-listing-id="${id}"] textarea[name="reason"]`).fill("Duplicates a listed prompt");
      await Promise.all([page.waitForURL(/done=rejected/), reject()]);
      expect(await homeFinds(name)).to.equal(false);

      const own = await newPage({ sessionToken: seller.token });
      await own.goto(`/prompt/${id}`);
      expect(await text(own, "status")).to.equal("rejected");
      expect(await text(own, "review-reason")).to.equal("Duplicates a listed prompt");
    });

    it("refuses anyone but a moderator: a 403 page signed in, the sign-in page otherwise; a form post too", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const id = await createPrompt(h.deps.ds, seller.id, {
        name: "Not for you",
        status: "pending",
        created_at: longAgo,
      });
      const user = await sessionUser(h.deps.ds, "user");
      const page = await newPage({ sessionToken: user.token });
      const res = await page.goto("/platform/moderation");
      expect(res!.status()).to.equal(403);
      expect(await page.content()).not.to.include("Not for you");
      expect((await (await newPage()).goto("/platform/moderation"))!.status()).to.equal(401);

      // A decision posted straight at the route (a session in the header needs no form token) is refused too.
      const [{ updated_at }] = await h.deps.ds.query(`SELECT updated_at FROM prompts WHERE id = $1`, [id]);
      const post = await fetch(`${h.platformUrl}/platform/moderation/${id}`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ decision: "approve", updated_at: new Date(updated_at).toISOString() }),
      });
      expect(post.status).to.equal(403);
      const [row] = await h.deps.ds.query(`SELECT status FROM prompts WHERE id = $1`, [id]);
      expect(row.status).to.equal("pending");
    });
  });

  describe("my listings", () => {
    it("lists a seller's prompts and agents in every status with the moderator's reason; others' are not theirs to edit", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      await createPrompt(h.deps.ds, seller.id, { name: "Mine approved" });
      await createPrompt(h.deps.ds, seller.id, { name: "Mine pending agent", status: "pending", kind: "agent" });
      await createPrompt(h.deps.ds, seller.id, {
        name: "Mine rejected",
        status: "rejected",
        moderation_reason: "Off topic",
      });
      const someone = await sessionUser(h.deps.ds, "someone");
      const theirs = await createPrompt(h.deps.ds, someone.id, { name: "Someone else's" });

      const page = await newPage({ sessionToken: seller.token });
      expect((await page.goto("/platform/mine"))!.status()).to.equal(200);
      const rows = page.locator('[data-field="results"] > li');
      expect(await rows.locator('[data-field="listing-name"]').allInnerTexts()).to.have.members([
        "Mine approved",
        "Mine pending agent",
        "Mine rejected",
      ]);
      const status = (name: string) =>
        rows.filter({ hasText: name }).locator('[data-field="listing-status"]').innerText();
      expect(await status("Mine approved")).to.equal("approved");
      expect(await status("Mine pending agent")).to.equal("pending");
      expect(await status("Mine rejected")).to.equal("rejected");
      expect(
        await rows.filter({ hasText: "Mine rejected" }).locator('[data-field="listing-review-reason"]').innerText(),
      ).to.equal("Moderator's reason: Off topic");
      expect(
        await rows.filter({ hasText: "Mine pending agent" }).locator('[data-field="listing-kind"]').innerText(),
      ).to.equal("Agent");

      expect((await page.goto(`/platform/mine/${theirs}/edit`))!.status()).to.equal(404);
      expect((await page.goto(`/platform/mine/not-an-id/edit`))!.status()).to.equal(404);
      expect((await (await newPage()).goto("/platform/mine"))!.status()).to.equal(401);
    });

    it("saves an edit as the edit route does: an approved prompt whose text changed goes back to review and off the home page", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const name = `Editable ${seller.id.slice(0, 8)}`;
      const id = await createPrompt(h.deps.ds, seller.id, {
        name,
        prompt: "You summarise meeting notes into decisions, owners and due dates.",
        description: "Meeting notes into decisions",
        use_cases: [{ title: "Stand-ups", description: "Daily notes" }],
        tags: "meetings",
      });
      expect(await homeFinds(name)).to.equal(true);

      const page = await newPage({ sessionToken: seller.token });
      await page.goto("/platform/mine");
      await Promise.all([page.waitForURL(/\/edit$/), page.getByRole("link", { name: `Edit ${name}` }).click()]);
      expect(await page.getByLabel("Use cases (one a line: title: description)").inputValue()).to.equal(
        "Stand-ups: Daily notes",
      );

      // A field that breaks its rule: the form again, saying so, and nothing stored.
      await page.getByLabel("Name", { exact: true }).fill("x");
      const refused = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByRole("button", { name: "Save" }).click();
      expect((await refused).status()).to.equal(400);
      expect(await text(page, "error")).to.equal("'name' length must be at least 2 characters long");
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).to.equal("x");

      await page.getByLabel("Name", { exact: true }).fill(name);
      await page
        .getByLabel("Prompt text")
        .fill("You summarise meeting notes into decisions, owners, due dates and open questions.");
      await Promise.all([page.waitForURL(/saved=1/), page.getByRole("button", { name: "Save" }).click()]);
      expect(await text(page, "notice")).to.include("Saved");
      const row = page.locator(`[data-listing-id="${id}"]`);
      expect(await row.locator('[data-field="listing-status"]').innerText()).to.equal("pending");
      const [stored] = await h.deps.ds.query(`SELECT status, prompt, name, tags FROM prompts WHERE id = $1`, [id]);
      expect(stored).to.deep.equal({
        status: "pending",
        prompt: "You summarise meeting notes into decisions, owners, due dates and open questions.",
        name,
        tags: "meetings",
      });
      expect(await homeFinds(name)).to.equal(false);
    });

    it("keeps an approved listing approved when nothing buyers see changed", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const id = await createPrompt(h.deps.ds, seller.id, {
        name: "Untouched",
        kind: "agent",
        description: "An agent",
      });
      const page = await newPage({ sessionToken: seller.token });
      await page.goto(`/platform/mine/${id}/edit`);
      expect(await page.getByLabel("Agent definition").count()).to.equal(1);
      await Promise.all([page.waitForURL(/saved=1/), page.getByRole("button", { name: "Save" }).click()]);
      const [stored] = await h.deps.ds.query(`SELECT status FROM prompts WHERE id = $1`, [id]);
      expect(stored.status).to.equal("approved");
    });

    it("creates a prompt as add-prompt does: pending, refused with the route's message when a rule is broken", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const name = `New from the form ${seller.id.slice(0, 8)}`;
      const page = await newPage({ sessionToken: seller.token });
      await page.goto("/platform/mine");
      await Promise.all([page.waitForURL(/\/new$/), page.getByRole("link", { name: "New prompt" }).click()]);
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Description", { exact: true }).fill("Drafts release notes from merged changes");
      await page.getByLabel("Prompt text").fill("Hi");
      await page.getByLabel("Use cases (one a line: title: description)").fill("Weekly: Summarise the week");
      await page.getByLabel("Tags (comma-separated)").fill("writing, release");
      const refused = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByRole("button", { name: "Create" }).click();
      expect((await refused).status()).to.equal(400);
      expect(await text(page, "error")).to.match(/'prompt'/);
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).to.equal(name);

      await page
        .getByLabel("Prompt text")
        .fill(`You write clear, friendly release notes from a list of merged changes, grouped by theme. ${name}`);
      await Promise.all([page.waitForURL(/created=1/), page.getByRole("button", { name: "Create" }).click()]);
      const [stored] = await h.deps.ds.query(
        `SELECT status, kind, tags, use_cases, is_free FROM prompts WHERE user_id = $1 AND name = $2`,
        [seller.id, name],
      );
      expect(stored).to.deep.equal({
        status: "pending",
        kind: "prompt",
        tags: "writing, release",
        use_cases: [{ title: "Weekly", description: "Summarise the week" }],
        is_free: true,
      });
      const row = page.locator('[data-field="results"] > li', { hasText: name });
      expect(await row.locator('[data-field="listing-status"]').innerText()).to.equal("pending");
      expect(await homeFinds(name)).to.equal(false);
    });

    it("answers a form field Postgres cannot store with a 400 page, never a 500, and stores nothing", async () => {
      const seller = await sessionUser(h.deps.ds, "seller");
      const mod = await moderator();
      const id = await createPrompt(h.deps.ds, seller.id, {
        name: "Hostile target",
        status: "pending",
        created_at: longAgo,
      });
      const [{ updated_at }] = await h.deps.ds.query(`SELECT updated_at FROM prompts WHERE id = $1`, [id]);
      const post = (path: string, token: string, fields: Record<string, string>) =>
        fetch(`${h.platformUrl}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields),
        });
      const edit = await post(`/platform/mine/${id}/edit`, seller.token, { name: "Bad\u0000name", text: "x" });
      expect(edit.status).to.equal(400);
      expect(await edit.text()).to.include("&#39;name&#39; holds a character that cannot be stored");
      const created = await post("/platform/mine/new", seller.token, {
        name: "New\u0000one",
        text: "Some prompt text",
      });
      expect(created.status).to.equal(400);
      const decided = await post(`/platform/moderation/${id}`, mod.token, {
        decision: "reject",
        reason: "Spam\u0000",
        updated_at: new Date(updated_at).toISOString(),
      });
      expect(decided.status).to.equal(400);
      const [row] = await h.deps.ds.query(`SELECT name, status FROM prompts WHERE id = $1`, [id]);
      expect(row).to.deep.equal({ name: "Hostile target", status: "pending" });
      const [{ count }] = await h.deps.ds.query(`SELECT count(*)::int AS count FROM prompts WHERE user_id = $1`, [
        seller.id,
      ]);
      expect(count).to.equal(1);
    });
  });
});
