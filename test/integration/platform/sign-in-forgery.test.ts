import { createServer, type Server } from "node:http";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { pagesBrowser } from "../../helpers/browser";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { closeNow, listenLocally } from "../../helpers/local-server";
import { sessionUser } from "../../helpers/platform-fixtures";

/**
 * Login CSRF in a real Chromium: a page on another site ("localhost" is another site than
 * "127.0.0.1" to the browser) that sends the victim's browser to the sign-in URL with the
 * attacker's session token, or posts the sign-in form by itself, must not sign the victim into the
 * attacker's account, so keys the victim creates afterwards stay theirs. Signing in on purpose
 * still works.
 */
describe("forced sign-in (login CSRF)", function () {
  this.timeout(120_000);
  let h: Harness;
  let attackerSite: Server;
  let attackerUrl: string;
  /** The page the attacker's site serves next. */
  let attackerPage = "";
  before(async () => {
    h = await harness();
    attackerSite = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(attackerPage);
    });
    attackerUrl = (await listenLocally(attackerSite)).replace("127.0.0.1", "localhost");
  });
  after(async () => {
    await closeNow(attackerSite);
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  const keysOf = async (userId: string) =>
    (await h.deps.ds.query(`SELECT name FROM api_keys WHERE user_id = $1`, [userId])).map(
      (k: { name: string }) => k.name,
    );

  /** The victim, back on the keys page after the attacker's, creates a key. */
  async function createKeyAfterwards(page: Page): Promise<void> {
    await page.goto("/platform/api-keys");
    await page.fill('input[name="name"]', "after-visit");
    await Promise.all([page.waitForURL("**/platform/api-keys"), page.click('button:text("Create key")')]);
  }

  const sessionCookie = async (page: Page) =>
    (await page.context().cookies()).find((c) => c.name === "apiary_session")?.value;

  it("a link from another site to the sign-in URL only offers the sign-in", async () => {
    const victim = await sessionUser(h.deps.ds, "victim");
    const attacker = await sessionUser(h.deps.ds, "attacker");
    attackerPage = `<meta http-equiv="refresh" content="0; url=${h.platformUrl}/platform/sign-in?token=${encodeURIComponent(attacker.token)}">`;
    const page = await newPage({ sessionToken: victim.token, allow: [attackerUrl] });
    await page.goto(attackerUrl);
    await page.waitForURL(`${h.platformUrl}/platform/sign-in?**`);
    expect(await page.locator('[data-field="offered-user"]').innerText()).to.equal(attacker.id);
    expect(await sessionCookie(page)).to.equal(victim.token);

    await createKeyAfterwards(page);
    expect(await sessionCookie(page)).to.equal(victim.token);
    expect(await keysOf(victim.id)).to.deep.equal(["after-visit"]);
    expect(await keysOf(attacker.id)).to.deep.equal([]);
  });

  it("another site's page that posts the sign-in form by itself is refused", async () => {
    const victim = await sessionUser(h.deps.ds, "victim");
    const attacker = await sessionUser(h.deps.ds, "attacker");
    // The attacker loads the sign-in form in their own browser for a genuine form token: it is bound
    // to their pre-session cookie, never the victim's.
    const own = await newPage();
    await own.goto("/platform/sign-in");
    const csrf = await own.locator('input[name="_csrf"]').first().getAttribute("value");
    expect(csrf).to.be.a("string").and.not.equal("");
    attackerPage = `<body onload="document.forms[0].submit()">
      <form method="post" action="${h.platformUrl}/platform/sign-in">
        <input type="hidden" name="_csrf" value="${csrf}">
        <input type="hidden" name="token" value="${attacker.token}">
      </form></body>`;
    const page = await newPage({ sessionToken: victim.token, allow: [attackerUrl], javaScript: true });
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/platform/sign-in") && r.request().method() === "POST"),
      page.goto(attackerUrl),
    ]);
    expect(posted.status()).to.equal(403);
    await page.waitForURL(`${h.platformUrl}/platform/sign-in`); // the refusal page, loaded
    expect(await sessionCookie(page)).to.equal(victim.token);

    await createKeyAfterwards(page);
    expect(await sessionCookie(page)).to.equal(victim.token);
    expect(await keysOf(victim.id)).to.deep.equal(["after-visit"]);
    expect(await keysOf(attacker.id)).to.deep.equal([]);
  });

  it("refuses a sign-in post without the form token of the browser's own pre-session", async () => {
    const user = await sessionUser(h.deps.ds, "no-token");
    const form = (fields: Record<string, string>, cookie?: string) => ({
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      raw: new URLSearchParams(fields).toString(),
    });
    const bare = await request(h.platformUrl, "POST", "/platform/sign-in", form({ token: user.token }));
    expect(bare.status).to.equal(403);
    expect(String(bare.headers.get("set-cookie"))).not.to.include("apiary_session=ey");

    // A token of one pre-session does not fit another.
    const page = await newPage();
    await page.goto("/platform/sign-in");
    const csrf = (await page.locator('input[name="_csrf"]').first().getAttribute("value"))!;
    const other = await request(
      h.platformUrl,
      "POST",
      "/platform/sign-in",
      form({ token: user.token, _csrf: csrf }, `apiary_pre_session=${"A".repeat(43)}`),
    );
    expect(other.status).to.equal(403);
    expect(String(other.headers.get("set-cookie"))).not.to.include("apiary_session=ey");

    // A form token is good for one sign-in: a client that kept its pre-session cookie cannot post again.
    const preSession = (await page.context().cookies()).find((c) => c.name === "apiary_pre_session")!.value;
    const once = form({ token: user.token, _csrf: csrf }, `apiary_pre_session=${preSession}`);
    const first = await request(h.platformUrl, "POST", "/platform/sign-in", once);
    expect(String(first.headers.get("set-cookie"))).to.include("apiary_session=ey");
    const again = await request(h.platformUrl, "POST", "/platform/sign-in", once);
    expect(again.status).to.equal(403);
    expect(String(again.headers.get("set-cookie"))).not.to.include("apiary_session=ey");
  });

  it("refuses every page form another site sent, whatever the credentials", async () => {
    const user = await sessionUser(h.deps.ds, "cross-site-header");
    for (const [path, fields] of [
      ["/platform/api-keys", { name: "cross" }],
      ["/platform/sign-out", {}],
      ["/platform/sign-in", { token: user.token }],
    ] as const) {
      const crossSite: Record<string, string>[] = [
        { "sec-fetch-site": "cross-site" },
        { origin: attackerUrl },
        { origin: "null" },
      ];
      for (const headers of crossSite) {
        const res = await request(h.platformUrl, "POST", path, {
          headers: {
            authorization: `Bearer ${user.token}`,
            "content-type": "application/x-www-form-urlencoded",
            ...headers,
          },
          raw: new URLSearchParams(fields).toString(),
        });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).to.equal(403);
      }
    }
    expect(await keysOf(user.id)).to.deep.equal([]);
  });

  it("signs in on purpose: pasting a token into the sign-in form", async () => {
    const user = await sessionUser(h.deps.ds, "on-purpose");
    const page = await newPage();
    await page.goto("/platform/sign-in");
    await page.fill('textarea[name="token"]', user.token);
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.click('button:text("Sign in with the token")'),
    ]);
    expect(posted.status()).to.equal(200);
    await page.waitForURL("**/platform/api-keys");
    expect(await sessionCookie(page)).to.equal(user.token);
    expect(await page.locator("header").innerText()).to.include(user.id);
  });
});
