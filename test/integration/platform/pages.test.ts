import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { pagesBrowser } from "../../helpers/browser";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { createPrompt } from "../../helpers/factories";
import { insertListing, insertReview, sessionToken, sessionUser } from "../../helpers/platform-fixtures";

/**
 * The platform's server-rendered pages in a real headless Chromium with JavaScript turned off:
 * listing pages, signing in, and the API-keys page end to end (create, use on the execution API,
 * revoke), including its CSRF defences.
 */
describe("platform pages in a browser", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  const text = (page: Page, field: string) => page.locator(`[data-field="${field}"]`).innerText();

  describe("prompt listing page", () => {
    it("shows a prompt's fields", async () => {
      const owner = await sessionUser(h.deps.ds, "seller");
      const id = await createPrompt(h.deps.ds, owner.id, {
        name: "Meeting summariser",
        description: "Turns long meeting notes into decisions and action items.",
        prompt: "You are a meticulous meeting assistant. List decisions, then owners and dates.",
        use_cases: [
          { title: "Stand-ups", description: "Daily notes in one paragraph" },
          { title: "Board meetings", description: "Decisions only" },
        ],
        tags: "productivity, meetings , writing",
        category: "Business",
        image_url: "https://images.example.com/summariser.png",
        links: [
          "https://example.com/docs",
          { name: "Guide", url: "https://example.com/guide" },
          { name: "Sneaky", url: "javascript:alert(1)" },
        ],
        tokenized_on: true,
        ticker: "MEET",
        token_address: "MeetMint1111111111111111111111111111111111",
        pool_address: "MeetPool1111111111111111111111111111111111",
        created_at: "2025-03-04T05:06:07Z",
      });
      await insertReview(h.deps.ds, id, 4);
      await insertReview(h.deps.ds, id, 5);

      const page = await newPage();
      const res = await page.goto(`/prompt/${id}`);
      expect(res!.status()).to.equal(200);
      expect(res!.headers()["content-type"]).to.match(/^text\/html/);
      expect(await page.title()).to.equal("Meeting summariser · Apiary");
      expect(await page.locator("h1").innerText()).to.equal("Meeting summariser");
      expect(await text(page, "description")).to.equal("Turns long meeting notes into decisions and action items.");
      expect(await text(page, "price")).to.equal("Free");
      expect(await text(page, "status")).to.equal("approved");
      expect(await text(page, "category")).to.equal("Business");
      expect(await text(page, "rating")).to.equal("4.5 / 5 (2 ratings)");
      expect(await text(page, "created")).to.equal("2025-03-04 05:06 UTC");
      expect(await page.locator('[data-field="created"]').getAttribute("datetime")).to.equal(
        "2025-03-04T05:06:07.000Z",
      );
      expect(await text(page, "token-address")).to.equal("MeetMint1111111111111111111111111111111111");
      expect(await text(page, "pool-address")).to.equal("MeetPool1111111111111111111111111111111111");
      expect(await page.locator('[data-field="tags"] li').allInnerTexts()).to.deep.equal([
        "productivity",
        "meetings",
        "writing",
      ]);
      expect(await page.locator('[data-field="use-cases"] li').allInnerTexts()).to.deep.equal([
        "Stand-ups: Daily notes in one paragraph",
        "Board meetings: Decisions only",
      ]);
      // An image the platform did not store is not shown: no viewer's browser asks another server.
      expect(await page.locator("img").count()).to.equal(0);
      // A free prompt's text is for everyone.
      expect(await text(page, "prompt")).to.equal(
        "You are a meticulous meeting assistant. List decisions, then owners and dates.",
      );
      // Links: http(s) only become anchors; a javascript: URL stays inert text.
      const anchors = page.locator('[data-field="links"] a');
      expect(await anchors.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).to.deep.equal([
        "https://example.com/docs",
        "https://example.com/guide",
      ]);
      expect(await page.locator('[data-field="links"] li').allInnerTexts()).to.deep.equal([
        "https://example.com/docs",
        "Guide",
        "Sneaky",
      ]);
      // No script may run on these pages, whatever a listing contains.
      expect(res!.headers()["content-security-policy"]).to.include("default-src 'none'");
    });

    it("prints what sellers wrote as text, never as markup", async () => {
      const owner = await sessionUser(h.deps.ds, "seller");
      const name = `<script>document.title="owned"</script><b>bold</b>`;
      const description = `"><img src=x onerror="document.title='owned'">`;
      const id = await createPrompt(h.deps.ds, owner.id, {
        name,
        description,
        tags: "<i>tag</i>",
        image_url: "javascript:alert(1)",
      });
      const page = await newPage();
      const res = await page.goto(`/prompt/${id}`);
      expect(res!.status()).to.equal(200);
      expect(await page.locator("h1").innerText()).to.equal(name);
      expect(await text(page, "description")).to.equal(description);
      expect(await text(page, "tags")).to.equal("<i>tag</i>");
      expect(await page.locator("main b, main i, main script, main img").count()).to.equal(0);
      expect(await page.title()).to.equal(`${name} · Apiary`);
    });

    it("hides a paid prompt's text from everyone but its owner", async () => {
      const owner = await sessionUser(h.deps.ds, "seller");
      const stranger = await sessionUser(h.deps.ds, "buyer");
      const secret = `Paid secret recipe ${randomUUID()}`;
      const id = await createPrompt(h.deps.ds, owner.id, {
        name: "Premium recipe",
        prompt: secret,
        is_free: false,
        price_usd: 12.5,
        price: 0.0833333,
      });

      for (const token of [undefined, stranger.token]) {
        const page = await newPage({ sessionToken: token });
        const res = await page.goto(`/prompt/${id}`);
        expect(res!.status()).to.equal(200);
        expect(await text(page, "price")).to.equal("$12.50 · 0.083333 SOL");
        expect(await page.locator('[data-field="prompt-hidden"]').count()).to.equal(1);
        expect(await page.locator('[data-field="prompt"]').count()).to.equal(0);
        expect(await res!.text()).not.to.include(secret); // not in the markup either
      }

      const ownerPage = await newPage({ sessionToken: owner.token });
      const res = await ownerPage.goto(`/prompt/${id}`);
      expect(res!.status()).to.equal(200);
      expect(await text(ownerPage, "prompt")).to.equal(secret);
      expect(await ownerPage.locator("header").innerText()).to.include(owner.id);
    });

    for (const status of ["rejected", "pending"] as const) {
      it(`shows a ${status} prompt to its owner only`, async () => {
        const owner = await sessionUser(h.deps.ds, "seller");
        const id = await createPrompt(h.deps.ds, owner.id, { name: `A ${status} one`, status });
        const stranger = await newPage();
        const hidden = await stranger.goto(`/prompt/${id}`);
        expect(hidden!.status()).to.equal(404);
        expect(await stranger.locator("h1").innerText()).to.equal("Not found");
        expect(await hidden!.text()).not.to.include(`A ${status} one`);

        const ownerPage = await newPage({ sessionToken: owner.token });
        const shown = await ownerPage.goto(`/prompt/${id}`);
        expect(shown!.status()).to.equal(200);
        expect(await text(ownerPage, "status")).to.equal(status);
      });
    }

    it("has no page for a tokenized prompt until its token has launched, even for the owner", async () => {
      const owner = await sessionUser(h.deps.ds, "seller");
      const launching = await createPrompt(h.deps.ds, owner.id, {
        name: "Token on its way",
        tokenized_on: true,
        ticker: "WAY",
        token_address: null,
      });
      const page = await newPage({ sessionToken: owner.token });
      const hidden = await page.goto(`/prompt/${launching}`);
      expect(hidden!.status()).to.equal(404);
      expect(await page.locator("h1").innerText()).to.equal("Not found");

      await h.deps.ds.query(`UPDATE prompts SET token_address = $2 WHERE id = $1`, [
        launching,
        "WayMint11111111111111111111111111111111111",
      ]);
      const shown = await page.goto(`/prompt/${launching}`);
      expect(shown!.status()).to.equal(200);
      expect(await text(page, "token-address")).to.equal("WayMint11111111111111111111111111111111111");
    });

    it("answers unknown and malformed ids with a 404 page", async () => {
      const page = await newPage();
      for (const path of [
        `/prompt/${randomUUID()}`,
        "/prompt/not-a-uuid",
        `/prompt/${encodeURIComponent("1' OR '1'='1")}`,
      ]) {
        const res = await page.goto(path);
        expect(res!.status(), path).to.equal(404);
        expect(res!.headers()["content-type"]).to.match(/^text\/html/);
        expect(await page.locator("h1").innerText()).to.equal("Not found");
      }
    });
  });

  describe("agent listing page", () => {
    it("shows a listing's fields", async () => {
      const owner = await sessionUser(h.deps.ds, "launcher");
      const id = await insertListing(h.deps.ds, owner.id, {
        name: "Research Scout",
        description: "Finds and summarises papers.",
        ticker: "SCOUT",
        image_url: "https://images.example.com/scout.png",
        token_address: "ScoutMint111111111111111111111111111111111",
        pool_address: "ScoutPool111111111111111111111111111111111",
        created_at: "2025-06-07T08:09:10Z",
      });
      const page = await newPage();
      const res = await page.goto(`/agent/${id}`);
      expect(res!.status()).to.equal(200);
      expect(await page.locator("h1").innerText()).to.equal("Research Scout SCOUT");
      expect(await text(page, "ticker")).to.equal("SCOUT");
      expect(await text(page, "description")).to.equal("Finds and summarises papers.");
      expect(await text(page, "status")).to.equal("launched");
      expect(await text(page, "token-address")).to.equal("ScoutMint111111111111111111111111111111111");
      expect(await text(page, "pool-address")).to.equal("ScoutPool111111111111111111111111111111111");
      expect(await text(page, "created")).to.equal("2025-06-07 08:09 UTC");
      expect(await page.locator("img").count()).to.equal(0); // not a copy the platform stored
    });

    it("has no page for launches still under way or failed, nor for unknown ids, even for the owner", async () => {
      const owner = await sessionUser(h.deps.ds, "launcher");
      const failed = await insertListing(h.deps.ds, owner.id, {
        name: "Never launched",
        status: "failed",
        token_address: null,
      });
      const launching = await insertListing(h.deps.ds, owner.id, {
        name: "Still launching",
        status: "launching",
        token_address: null,
      });
      const page = await newPage({ sessionToken: owner.token });
      for (const path of [`/agent/${failed}`, `/agent/${launching}`, `/agent/${randomUUID()}`, "/agent/xyz"]) {
        const res = await page.goto(path);
        expect(res!.status(), path).to.equal(404);
        expect(await page.locator("h1").innerText()).to.equal("Not found");
      }
    });
  });

  describe("API keys page", () => {
    /** Submits the form holding `button` and returns the response to the POST itself. */
    async function submit(page: Page, button: string) {
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST"),
        page.click(button),
      ]);
      await page.waitForLoadState();
      return response;
    }

    it("asks people who are not signed in to sign in (401)", async () => {
      const page = await newPage();
      const res = await page.goto("/platform/api-keys");
      expect(res!.status()).to.equal(401);
      expect(await page.locator("h1").innerText()).to.match(/Sign in/);
      expect(await page.locator('form[action="/platform/sign-in"] textarea[name="token"]').count()).to.equal(1);
    });

    it("refuses an invalid session token and sets no cookie", async () => {
      const page = await newPage();
      const forged = (await sessionToken(randomUUID())).slice(0, -4) + "AAAA";
      const res = await page.goto(`/platform/sign-in?token=${encodeURIComponent(forged)}`);
      expect(res!.status()).to.equal(401);
      expect(await text(page, "error")).to.match(/not valid/);
      const cookies = await page.context().cookies();
      expect(cookies.filter((c) => c.name === "apiary_session")).to.deep.equal([]);
    });

    it("signs in, creates a key shown once, and revokes it so the execution API refuses it", async () => {
      const user = await sessionUser(h.deps.ds, "keys");
      const page = await newPage();

      // The identity backend sends the browser here with the token; the page names the account and
      // signs in once the person confirms, then moves on to the keys.
      const offer = await page.goto(`/platform/sign-in?token=${encodeURIComponent(user.token)}`);
      expect(offer!.status()).to.equal(200);
      expect(offer!.headers()["referrer-policy"]).to.equal("no-referrer");
      expect(await text(page, "offered-user")).to.equal(user.id);
      expect((await page.context().cookies()).map((c) => c.name)).not.to.include("apiary_session");
      const signIn = await submit(page, 'button:text("Sign in as this account")');
      expect(signIn.status()).to.equal(200);
      await page.waitForURL("**/platform/api-keys");
      const cookie = (await page.context().cookies()).find((c) => c.name === "apiary_session");
      expect(cookie).to.include({
        name: "apiary_session",
        value: user.token,
        httpOnly: true,
        sameSite: "Strict",
        secure: false,
        path: "/",
      });
      expect(await text(page, "no-keys")).to.equal("You have no API keys yet.");

      // Create: the full key is on the page after the form, once.
      await page.fill('input[name="name"]', "laptop <script>");
      const created = await submit(page, 'button:text("Create key")');
      expect(created.status()).to.equal(303);
      const key = (await text(page, "new-key")).trim();
      expect(key).to.match(/^sk-[0-9a-f]{64}$/);
      expect(await text(page, "new-key-notice")).to.include("laptop <script>");
      const row = page.locator("table[data-field=keys] tbody tr");
      expect(await row.count()).to.equal(1);
      // The key is named by its id, as Bull Board, the logs, `npm run apikey` and GET /v1/usage name it.
      const keyId = await row.locator('[data-field="key-id"]').innerText();
      expect(keyId).to.match(/^[0-9a-f-]{36}$/);
      expect(await row.getAttribute("data-key-id")).to.equal(keyId);
      expect(await row.innerText())
        .to.include(`sk-…${key.slice(-4)}`)
        .and.include("free")
        .and.include("active");

      await page.reload();
      expect(await page.locator('[data-field="new-key"]').count()).to.equal(0);
      expect(await page.content()).not.to.include(key);
      expect(await row.count()).to.equal(1);

      // The key works on the execution API…
      const ok = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
      expect(ok.status).to.equal(200);

      // …until it is revoked here. The execution API caches valid keys for 30 s; the revocation
      // is announced, so it refuses the key well before that.
      const revoked = await submit(page, 'button:text("Revoke")');
      expect(revoked.status()).to.equal(303);
      expect(await text(page, "notice")).to.match(/revoked/);
      expect(await row.innerText()).to.include("revoked");
      expect(await page.locator('button:text("Revoke")').count()).to.equal(0);
      const refused = await eventually(async () => {
        const res = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
        return res.status === 401 ? res : undefined;
      }, 5_000);
      expect(refused.body.code).to.equal("AUTHENTICATION_FAILED");
      const [stored] = await h.deps.ds.query(`SELECT revoked_at FROM api_keys WHERE user_id = $1`, [user.id]);
      expect(stored.revoked_at).to.be.instanceOf(Date);
    });

    it("signs out: the cookie is gone and the keys page asks to sign in again", async () => {
      const user = await sessionUser(h.deps.ds, "sign-out");
      const page = await newPage({ sessionToken: user.token });
      expect((await page.goto("/platform/api-keys"))!.status()).to.equal(200);
      const res = await submit(page, 'button:text("Sign out")');
      expect(res.status()).to.equal(200);
      expect(await page.context().cookies()).to.deep.equal([]);
      expect((await page.goto("/platform/api-keys"))!.status()).to.equal(401);
    });

    it("takes the session in the Authorization header too, and never touches another user's keys", async () => {
      const user = await sessionUser(h.deps.ds, "header");
      const victim = await h.newKey();
      const form = (fields: Record<string, string>) => ({
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/x-www-form-urlencoded" },
        raw: new URLSearchParams(fields).toString(),
      });
      // Browsers never add this header by themselves, so no form token is needed with it.
      const created = await request(h.platformUrl, "POST", "/platform/api-keys", form({ name: "script" }));
      expect(created.status).to.equal(201);
      expect(created.body).to.match(/sk-[0-9a-f]{64}/);

      const refused = await request(h.platformUrl, "POST", `/platform/api-keys/${victim.keyId}/revoke`, form({}));
      expect(refused.status).to.equal(404);
      expect((await request(h.baseUrl, "GET", "/v1/rate/limits", { key: victim.key })).status).to.equal(200);

      // An API key is not a session: it cannot manage keys.
      const withKey = await request(h.platformUrl, "GET", "/platform/api-keys", {
        headers: { authorization: `Bearer ${victim.key}` },
      });
      expect(withKey.status).to.equal(401);
    });

    it("refuses a form posted without its CSRF token, or with another session's", async () => {
      const user = await sessionUser(h.deps.ds, "csrf");
      const other = await sessionUser(h.deps.ds, "csrf-other");
      const page = await newPage({ sessionToken: user.token });
      expect((await page.goto("/platform/api-keys"))!.status()).to.equal(200);

      // The same browser and cookie, but the form's token is dropped on the way.
      await page.route("**/platform/api-keys", (route) =>
        route.request().method() === "POST" ? route.continue({ postData: "name=no-token" }) : route.continue(),
      );
      await page.fill('input[name="name"]', "no-token");
      const missing = await submit(page, 'button:text("Create key")');
      expect(missing.status()).to.equal(403);
      expect(await page.locator("h1").innerText()).to.equal("Form refused");

      // A token made for another session does not fit this one.
      const otherPage = await newPage({ sessionToken: other.token });
      await otherPage.goto("/platform/api-keys");
      const otherToken = await otherPage
        .locator('form[action="/platform/api-keys"] input[name="_csrf"]')
        .getAttribute("value");
      await page.unroute("**/platform/api-keys");
      await page.route("**/platform/api-keys", (route) =>
        route.request().method() === "POST"
          ? route.continue({ postData: `_csrf=${encodeURIComponent(otherToken!)}&name=wrong-token` })
          : route.continue(),
      );
      await page.goto("/platform/api-keys");
      await page.fill('input[name="name"]', "wrong-token");
      const wrong = await submit(page, 'button:text("Create key")');
      expect(wrong.status()).to.equal(403);

      const keys = await h.deps.ds.query(`SELECT id FROM api_keys WHERE user_id = $1`, [user.id]);
      expect(keys).to.deep.equal([]);
    });

    it("does not send the session along with another site's form", async () => {
      const user = await sessionUser(h.deps.ds, "cross-site");
      // "localhost" and "127.0.0.1" are different sites to the browser.
      const attacker: Server = createServer((_req, res) => {
        res.setHeader("content-type", "text/html");
        res.end(
          `<form method="post" action="${h.platformUrl}/platform/api-keys"><input name="name" value="evil"><button>Win a prize</button></form>`,
        );
      });
      await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
      const attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}`;
      try {
        const page = await newPage({ sessionToken: user.token, allow: [attackerUrl] });
        await page.goto(attackerUrl);
        const res = await submit(page, 'button:text("Win a prize")');
        expect(res.status()).to.equal(403); // sent from another site (and no cookie arrived)
        const keys = await h.deps.ds.query(`SELECT id FROM api_keys WHERE user_id = $1`, [user.id]);
        expect(keys).to.deep.equal([]);
      } finally {
        attacker.closeAllConnections();
        await new Promise((resolve) => attacker.close(resolve));
      }
    });
  });
});
