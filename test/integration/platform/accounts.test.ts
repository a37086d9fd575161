import { randomUUID } from "node:crypto";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { createInvite } from "../../../shared/auth/invites";
import { hashPassword } from "../../../shared/auth/passwords";
import { insertAccount } from "../../../shared/db/account-store";
import type { AccountSettings } from "../../../shared/config/accounts";
import { formTokenOf, getWithSession, postForm, postPreSessionForm } from "../../helpers/account-forms";
import { pagesBrowser } from "../../helpers/browser";
import { sessionUser } from "../../helpers/platform-fixtures";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { captureLogs } from "../../helpers/log-capture";
import { serveApp, type ServedApp } from "../../helpers/platform-app";
import { postgresText, redisText } from "../../helpers/secret-scan";
import { createPlatformApp } from "../../../api/app";
import { config } from "../../../shared/config";

const PASSWORD = "correct horse battery staple";

/**
 * Accounts Apiary keeps itself, on the pages: signing up in each mode, signing in and out with an
 * email and password, the rate limit, password changes, forms without their tokens, and that a new
 * account's API key works on the execution API. Browser tests use the Debian Chromium; HTTP-level
 * ones where the answer's status and body are the point.
 */
describe("accounts: sign-up, sign-in, sessions", function () {
  this.timeout(120_000);
  let h: Harness;
  const served: ServedApp[] = [];
  before(async () => {
    h = await harness();
  });
  after(async () => {
    await Promise.all(served.map((s) => s.close()));
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  /** A platform app with account settings of its own (another sign-up mode, a small rate limit). */
  async function platformWith(settings: Partial<AccountSettings>, behindOneProxy = false): Promise<string> {
    const koa = createPlatformApp({ ...h.deps, accounts: { ...h.deps.accounts, ...settings } });
    // As with TRUSTED_PROXY_HOPS=1: the test stands in for the proxy, writing each client's address.
    if (behindOneProxy) Object.assign(koa, { proxy: true, maxIpsCount: 1 });
    const app = await serveApp(koa);
    served.push(app);
    return app.url;
  }

  const newEmail = (label = "person") => `${label}-${randomUUID()}@Example.test`;

  async function account(email = newEmail(), password = PASSWORD): Promise<{ id: string; email: string }> {
    return { id: await insertAccount(h.deps.ds, { email, passwordHash: await hashPassword(password) }), email };
  }

  async function signIn(url: string, email: string, password: string) {
    return postPreSessionForm(url, "/platform/sign-in", { email, password, next: "/platform/account" });
  }

  async function signUpInBrowser(page: Page, path: string, email: string): Promise<void> {
    await page.goto(path);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.click('button:text("Make my account")');
  }

  it("open sign-up makes an account in the browser, and its API key works on the execution API", async () => {
    const email = newEmail("open");
    const page = await newPage();
    await signUpInBrowser(page, "/platform/sign-up?next=/platform/api-keys", email);
    await page.waitForURL("**/platform/api-keys");
    expect(await page.locator('[data-field="viewer-name"]').innerText()).to.equal(email);

    await page.getByLabel("Name").fill("from a new account");
    await Promise.all([page.waitForURL("**/platform/api-keys"), page.click('button:text("Create key")')]);
    const key = (await page.locator('[data-field="new-key"]').innerText()).trim();
    expect(key).to.match(/^sk-[0-9a-f]{64}$/);
    const limits = await request(h.baseUrl, "GET", "/v1/rate/limits", { key });
    expect(limits.status).to.equal(200);

    const [row] = await h.deps.ds.query(`SELECT email, role, password_hash FROM users WHERE lower(email) = lower($1)`, [
      email,
    ]);
    expect(row.email).to.equal(email);
    expect(row.role).to.equal("user");
    expect(row.password_hash).to.match(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a second account with the same email in another case (409)", async () => {
    const { email } = await account();
    const again = await postPreSessionForm(h.platformUrl, "/platform/sign-up", {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(again.status).to.equal(409);
    expect(again.session).to.equal(null);
  });

  it("invite sign-up needs a valid unused link, which makes one account", async () => {
    const url = await platformWith({ signUpMode: "invite" });
    expect((await fetch(`${url}/platform/sign-up`)).status).to.equal(403);
    expect((await fetch(`${url}/platform/sign-up?invite=${"A".repeat(43)}`)).status).to.equal(403);
    const bare = await postPreSessionForm(
      url,
      "/platform/sign-up",
      { email: newEmail(), password: PASSWORD },
      "/platform/sign-in",
    );
    expect(bare.status).to.equal(403);

    const path = await createInvite(h.deps.ds, null, 1);
    const invite = new URL(path, url).searchParams.get("invite")!;
    expect((await fetch(`${url}${path}`)).status).to.equal(200);
    const first = await postPreSessionForm(
      url,
      "/platform/sign-up",
      { email: newEmail("invited"), password: PASSWORD, invite },
      path,
    );
    expect(first.status).to.equal(303);
    expect(first.session).to.match(/^[A-Za-z0-9_-]{43}$/);

    const second = await postPreSessionForm(
      url,
      "/platform/sign-up",
      { email: newEmail("late"), password: PASSWORD, invite },
      "/platform/sign-in",
    );
    expect(second.status).to.equal(403);
    expect(second.session).to.equal(null);
    expect((await fetch(`${url}${path}`)).status).to.equal(403);
  });

  it("invite sign-up refuses an expired invite", async () => {
    const url = await platformWith({ signUpMode: "invite" });
    const path = await createInvite(h.deps.ds, null, 1);
    await h.deps.ds.query(`UPDATE account_invites SET expires_at = now() - interval '1 second'`);
    expect((await fetch(`${url}${path}`)).status).to.equal(403);
  });

  it("closed sign-up refuses the page and the form", async () => {
    const url = await platformWith({ signUpMode: "closed" });
    expect((await fetch(`${url}/platform/sign-up`)).status).to.equal(403);
    const email = newEmail("closed");
    const post = await postPreSessionForm(url, "/platform/sign-up", { email, password: PASSWORD }, "/platform/sign-in");
    expect(post.status).to.equal(403);
    expect(await h.deps.ds.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [email])).to.have.length(0);
  });

  it("signs in with email and password in the browser, to the page it was sent from", async () => {
    const { email } = await account();
    const page = await newPage();
    expect((await page.goto("/platform/account"))!.status()).to.equal(401);
    await page.getByLabel("Email").fill(email.toLowerCase());
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForURL("**/platform/account"),
      page.click('form[data-form="password-sign-in"] button'),
    ]);
    expect(await page.locator('[data-field="account-name"]').innerText()).to.equal(email);
    const cookie = (await page.context().cookies()).find((c) => c.name === "apiary_session")!;
    expect(cookie).to.include({ httpOnly: true, sameSite: "Strict" });
    expect(cookie.value).to.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it("answers a wrong password as it answers an unknown email", async () => {
    const { email } = await account();
    const wrongPassword = await signIn(h.platformUrl, email, "not the password at all");
    const unknownEmail = await signIn(h.platformUrl, newEmail("nobody"), PASSWORD);
    expect(wrongPassword.status).to.equal(401);
    expect(unknownEmail.status).to.equal(401);
    const error = (html: string) => /data-field="error">([^<]*)</.exec(html)?.[1];
    expect(error(wrongPassword.html)).to.equal("That email and password do not match an account.");
    expect(error(unknownEmail.html)).to.equal(error(wrongPassword.html));
    expect(wrongPassword.session).to.equal(null);
    expect(unknownEmail.session).to.equal(null);
  });

  it("rate-limits sign-in per email, the right password included, and per address", async () => {
    const url = await platformWith({ attemptsPerEmail: 3, attemptsPerAddress: 6 });
    // Every test signs in from 127.0.0.1: this one starts the address's window afresh.
    const counted = await h.deps.redis.keys(`${config.queue.prefix}:sign-in-attempts:address:*`);
    if (counted.length) await h.deps.redis.del(...counted);
    const { email } = await account();
    for (let i = 0; i < 3; i++) expect((await signIn(url, email, "wrong password " + i)).status).to.equal(401);
    const limited = await signIn(url, email, PASSWORD);
    expect(limited.status).to.equal(429);
    expect(limited.session).to.equal(null);

    // Other emails from the same address: two more, then the address's limit too, whatever address a
    // client claims in X-Forwarded-For (no proxy of the operator's stands in front, so none is believed).
    let claimed = 0;
    const claiming = (email: string) =>
      postPreSessionForm(
        url,
        "/platform/sign-in",
        { email, password: PASSWORD, next: "/platform/account" },
        undefined,
        {
          "x-forwarded-for": `203.0.113.${++claimed}`,
        },
      );
    const other = await account();
    expect((await claiming(other.email)).status).to.equal(303);
    expect((await claiming(other.email)).status).to.equal(303);
    expect((await claiming((await account()).email)).status).to.equal(429);
  });

  it("counts an email's tries per address, so a guesser elsewhere cannot lock its owner out, and bounds all addresses", async () => {
    const url = await platformWith({ attemptsPerEmail: 2, attemptsPerAddress: 50 }, true);
    const from = (address: string, email: string, password: string) =>
      postPreSessionForm(url, "/platform/sign-in", { email, password, next: "/platform/account" }, undefined, {
        "x-forwarded-for": address,
      });
    const { email } = await account();
    for (let i = 0; i < 2; i++) expect((await from("198.51.100.7", email, `guess ${i}`)).status).to.equal(401);
    expect((await from("198.51.100.7", email, "guess 3")).status).to.equal(429);
    expect((await from("198.51.100.8", email, PASSWORD)).status).to.equal(303);

    // Spread over addresses, one try each: ten times the per-address allowance in all, then every address waits.
    for (let i = 0; i < 17; i++) expect((await from(`203.0.113.${i + 1}`, email, `spread ${i}`)).status).to.equal(401);
    const refused = await from("203.0.113.200", email, PASSWORD);
    expect(refused.status).to.equal(429);
    expect(refused.session).to.equal(null);
  });

  it("signing in with a session token ends the account session it replaces", async () => {
    const { email } = await account();
    const first = await signIn(h.platformUrl, email, PASSWORD);
    expect(first.session).to.be.a("string");
    const form = await fetch(`${h.platformUrl}/platform/sign-in`);
    const preSession = form.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .find((pair) => pair.startsWith("apiary_pre_session="));
    const other = await sessionUser(h.deps.ds, "token-holder");
    const swapped = await postForm(
      h.platformUrl,
      "/platform/sign-in",
      { _csrf: formTokenOf(await form.text()), token: other.token, next: "/platform/account" },
      `${preSession}; apiary_session=${first.session}`,
    );
    expect(swapped.status, swapped.html).to.equal(200);
    expect(swapped.session).to.equal(other.token);
    expect((await getWithSession(h.platformUrl, "/platform/account", first.session!)).status).to.equal(401);
  });

  it("sign-out ends the session: its token opens nothing afterwards", async () => {
    const { email } = await account();
    const { session } = await signIn(h.platformUrl, email, PASSWORD);
    const accountPage = await getWithSession(h.platformUrl, "/platform/account", session!);
    expect(accountPage.status).to.equal(200);
    const out = await postForm(
      h.platformUrl,
      "/platform/sign-out",
      { _csrf: formTokenOf(accountPage.html) },
      `apiary_session=${session}`,
    );
    expect(out.status).to.equal(200);
    expect((await getWithSession(h.platformUrl, "/platform/account", session!)).status).to.equal(401);
    expect(
      (await request(h.platformUrl, "GET", "/platform/api-keys", { headers: { authorization: `Bearer ${session}` } }))
        .status,
    ).to.equal(401);
  });

  it("a password change ends the account's other sessions and keeps this one", async () => {
    const { email } = await account();
    const here = (await signIn(h.platformUrl, email, PASSWORD)).session!;
    const elsewhere = (await signIn(h.platformUrl, email, PASSWORD)).session!;
    const page = await getWithSession(h.platformUrl, "/platform/account", here);
    const newPassword = "a brand new passphrase";
    const wrongCurrent = await postForm(
      h.platformUrl,
      "/platform/account/password",
      { _csrf: formTokenOf(page.html), current: "not it at all", password: newPassword },
      `apiary_session=${here}`,
    );
    expect(wrongCurrent.status).to.equal(401);
    const changed = await postForm(
      h.platformUrl,
      "/platform/account/password",
      { _csrf: formTokenOf(page.html), current: PASSWORD, password: newPassword },
      `apiary_session=${here}`,
    );
    expect(changed.status).to.equal(200);
    expect((await getWithSession(h.platformUrl, "/platform/account", elsewhere)).status).to.equal(401);
    expect((await getWithSession(h.platformUrl, "/platform/account", here)).status).to.equal(200);
    expect((await signIn(h.platformUrl, email, PASSWORD)).status).to.equal(401);
    expect((await signIn(h.platformUrl, email, newPassword)).status).to.equal(303);
  });

  it("refuses a signed-in form posted without a valid form token", async () => {
    const { email } = await account();
    const session = (await signIn(h.platformUrl, email, PASSWORD)).session!;
    for (const _csrf of ["", "forged-token"]) {
      const res = await postForm(
        h.platformUrl,
        "/platform/account/password",
        { _csrf, current: PASSWORD, password: "a brand new passphrase" },
        `apiary_session=${session}`,
      );
      expect(res.status, _csrf).to.equal(403);
    }
    expect((await signIn(h.platformUrl, email, PASSWORD)).status).to.equal(303);
  });

  it("refuses a sign-in or sign-up post without the browser's pre-session form token (login CSRF)", async () => {
    const { email } = await account();
    const noToken = await postForm(h.platformUrl, "/platform/sign-in", { email, password: PASSWORD }, "");
    expect(noToken.status).to.equal(403);
    expect(noToken.session).to.equal(null);
    // A genuine form token of the attacker's own pre-session, posted with another browser's cookie.
    const own = await fetch(`${h.platformUrl}/platform/sign-in`);
    const forged = await postForm(
      h.platformUrl,
      "/platform/sign-in",
      { _csrf: formTokenOf(await own.text()), email, password: PASSWORD },
      `apiary_pre_session=${"A".repeat(43)}`,
    );
    expect(forged.status).to.equal(403);
    const signUp = await postForm(h.platformUrl, "/platform/sign-up", { email: newEmail(), password: PASSWORD }, "");
    expect(signUp.status).to.equal(403);
  });

  it("an admin makes an invite link on the account page; others may not", async () => {
    const admin = await insertAccount(h.deps.ds, {
      email: newEmail("admin"),
      passwordHash: await hashPassword(PASSWORD),
      role: "admin",
    });
    const [{ email }] = await h.deps.ds.query(`SELECT email FROM users WHERE id = $1`, [admin]);
    const session = (await signIn(h.platformUrl, email, PASSWORD)).session!;
    const page = await getWithSession(h.platformUrl, "/platform/account", session);
    const made = await postForm(
      h.platformUrl,
      "/platform/account/invites",
      { _csrf: formTokenOf(page.html) },
      `apiary_session=${session}`,
    );
    expect(made.status).to.equal(201);
    const link = /data-field="invite-url">([^<]*)</.exec(made.html)![1];
    expect(new URL(link).pathname).to.equal("/platform/sign-up");

    const user = await account();
    const userSession = (await signIn(h.platformUrl, user.email, PASSWORD)).session!;
    const userPage = await getWithSession(h.platformUrl, "/platform/account", userSession);
    const refused = await postForm(
      h.platformUrl,
      "/platform/account/invites",
      { _csrf: formTokenOf(userPage.html) },
      `apiary_session=${userSession}`,
    );
    expect(refused.status).to.equal(403);
  });

  it("shows the Moderation link to moderators and admins only", async () => {
    for (const [role, shown] of [
      ["user", 0],
      ["moderator", 1],
      ["admin", 1],
    ] as const) {
      const id = await insertAccount(h.deps.ds, {
        email: newEmail(role),
        passwordHash: await hashPassword(PASSWORD),
        role,
      });
      const [{ email }] = await h.deps.ds.query(`SELECT email FROM users WHERE id = $1`, [id]);
      const session = (await signIn(h.platformUrl, email, PASSWORD)).session!;
      const page = await getWithSession(h.platformUrl, "/platform/account", session);
      expect(page.html.split('href="/platform/moderation"').length - 1, role).to.equal(shown);
    }
  });

  it("never lets a password, its hash or a session token reach logs, answers, Redis or Postgres in clear", async () => {
    const logs = captureLogs();
    const password = `secret-${randomUUID()}`;
    const email = newEmail("secrets");
    let signedUp, signedIn, wrong;
    try {
      signedUp = await postPreSessionForm(h.platformUrl, "/platform/sign-up", { email, password });
      signedIn = await signIn(h.platformUrl, email, password);
      wrong = await signIn(h.platformUrl, email, `${password}-wrong`);
    } finally {
      logs.stop();
    }
    expect(signedUp.status).to.equal(303);
    const [{ password_hash: hash }] = await h.deps.ds.query(`SELECT password_hash FROM users WHERE email = $1`, [
      email,
    ]);
    const tokens = [signedUp.session!, signedIn.session!];
    const logged = JSON.stringify(logs.lines);
    const answers = [signedUp, signedIn, wrong].map((a) => a.html).join("\n");
    const redis = await redisText(h.deps.redis);
    const postgres = await postgresText(h.deps.ds);
    for (const secret of [password, hash, ...tokens]) {
      expect(logged).not.to.include(secret);
      expect(answers).not.to.include(secret);
      expect(redis).not.to.include(secret);
    }
    for (const secret of [password, ...tokens]) expect(postgres).not.to.include(secret);
    expect(redis).not.to.include(email.toLowerCase());
  });
});
