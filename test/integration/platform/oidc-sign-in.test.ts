import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { expect } from "chai";
import { createPlatformApp } from "../../../api/app";
import type { OidcSettings } from "../../../shared/config/accounts";
import { hashPassword } from "../../../shared/auth/passwords";
import { insertAccount } from "../../../shared/db/account-store";
import { getWithSession, postPreSessionForm } from "../../helpers/account-forms";
import { pagesBrowser } from "../../helpers/browser";
import { harness, type Harness } from "../../helpers/harness";
import { closeNow, listenLocally } from "../../helpers/local-server";
import { captureLogs } from "../../helpers/log-capture";
import { postgresText, redisText } from "../../helpers/secret-scan";
import { startOidcProvider, type LocalOidcProvider, type ProviderUser } from "../../helpers/oidc-provider";

const CALLBACK = "/platform/sign-in/oidc/callback";

/** What one step of the flow answered, seen by a program that follows no redirect. */
interface Hop {
  status: number;
  html: string;
  location: string | null;
  cookies: Map<string, string>;
}

async function hop(url: string, cookie = ""): Promise<Hop> {
  const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const cookies = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { status: res.status, html: await res.text(), location: res.headers.get("location"), cookies };
}

/**
 * Signing in through the company's OpenID Connect provider, against a provider of our own on
 * loopback: the whole flow in Chromium, then HTTP-level checks of each refusal (state, nonce,
 * audience, signing key, sign-up off, unverified email) where the status and the absent session
 * are the point.
 */
describe("accounts: sign-in through an OpenID Connect provider", function () {
  this.timeout(120_000);
  let h: Harness;
  let provider: LocalOidcProvider;
  const closers: (() => Promise<void>)[] = [];
  let platformUrl = "";

  /** A platform app whose OpenID Connect settings point at the local provider (its redirect URL is its own). */
  async function platformWith(settings: Partial<OidcSettings> = {}): Promise<string> {
    // Listening first: the app's redirect URL names the port it is served on.
    const server = createServer();
    const url = await listenLocally(server);
    closers.push(() => closeNow(server));
    const oidc: OidcSettings = {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      scopes: "openid email profile",
      buttonLabel: "Example Corp",
      signUp: true,
      redirectUri: `${url}${CALLBACK}`,
      ...settings,
    };
    server.on("request", createPlatformApp({ ...h.deps, accounts: { ...h.deps.accounts, oidc } }).callback());
    return url;
  }

  before(async () => {
    h = await harness();
    provider = await startOidcProvider();
    platformUrl = await platformWith();
  });
  after(async () => {
    await Promise.all(closers.map((close) => close()));
    await provider?.close();
  });
  beforeEach(() => {
    provider.tamper = {};
    provider.refusals.length = 0;
  });
  const { newPage } = pagesBrowser(() => platformUrl);

  const newPerson = (label: string, verified = true): ProviderUser => ({
    sub: `${label}-${randomUUID()}`,
    email: `${label}-${randomUUID()}@corp.example`,
    email_verified: verified,
  });

  /** The flow as a program follows it: start, the provider's redirect back, the callback with the state cookie. */
  async function signInOverHttp(url = platformUrl, alterState?: (state: string) => string) {
    const start = await hop(`${url}/platform/sign-in/oidc?next=/platform/account`);
    expect(start.status, start.html).to.equal(302);
    const stateCookie = `apiary_oidc_sign_in=${start.cookies.get("apiary_oidc_sign_in")}`;
    const back = await hop(start.location!);
    expect(back.status).to.equal(302);
    const callback = new URL(back.location!);
    if (alterState) callback.searchParams.set("state", alterState(callback.searchParams.get("state")!));
    const end = await hop(callback.href, stateCookie);
    return { ...end, session: end.cookies.get("apiary_session") || null, start, stateCookie, callback };
  }

  async function linkedUser(person: ProviderUser): Promise<string | null> {
    const [row] = await h.deps.ds.query(`SELECT user_id FROM account_identities WHERE issuer = $1 AND subject = $2`, [
      provider.issuer,
      person.sub,
    ]);
    return row?.user_id ?? null;
  }

  it("signs a new person in through the provider in the browser, and finds the same account the next time", async () => {
    const person = newPerson("browser");
    provider.user = person;
    const page = await newPage({ allow: [provider.issuer] });
    await page.goto("/platform/sign-in?next=/platform/account");
    const link = page.locator('[data-field="oidc-sign-in"]');
    expect(await link.innerText()).to.equal("Sign in with Example Corp");
    await Promise.all([page.waitForURL("**/platform/account"), link.click()]);
    expect(await page.locator('[data-field="account-name"]').innerText()).to.equal(person.email);
    const userId = await linkedUser(person);
    expect(userId).to.be.a("string");
    const [user] = await h.deps.ds.query(`SELECT email, password_hash, role FROM users WHERE id = $1`, [userId]);
    expect(user).to.deep.equal({ email: person.email, password_hash: null, role: "user" });

    const again = await newPage({ allow: [provider.issuer] });
    await again.goto("/platform/sign-in?next=/platform/account");
    await Promise.all([again.waitForURL("**/platform/account"), again.locator('[data-field="oidc-sign-in"]').click()]);
    expect(await again.locator('[data-field="account-name"]').innerText()).to.equal(person.email);
    const [{ count }] = await h.deps.ds.query(
      `SELECT count(*)::int AS count FROM users WHERE lower(email) = lower($1)`,
      [person.email],
    );
    expect(count).to.equal(1);
    expect(await linkedUser(person)).to.equal(userId);
  });

  it("starts a session that opens the pages, as a password sign-in's does", async () => {
    provider.user = newPerson("http");
    const done = await signInOverHttp();
    expect(done.status).to.equal(200);
    expect(done.session).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(done.html).to.include('http-equiv="refresh" content="0; url=/platform/account"');
    const account = await getWithSession(platformUrl, "/platform/account", done.session!);
    expect(account.status).to.equal(200);
    expect(account.html).to.include(provider.user.email);
    // The start's redirect carried PKCE (S256), state and nonce; the state cookie is HttpOnly and Lax.
    const authorize = new URL(done.start.location!);
    expect(authorize.searchParams.get("code_challenge_method")).to.equal("S256");
    expect(authorize.searchParams.get("state")).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("nonce")).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("redirect_uri")).to.equal(`${platformUrl}${CALLBACK}`);
  });

  it("refuses a forged or missing state, a garbled state cookie, and a replayed callback", async () => {
    provider.user = newPerson("state");
    const forged = await signInOverHttp(platformUrl, (state) => `${state.slice(0, -2)}xx`);
    expect(forged.status).to.equal(400);
    expect(forged.html).to.include("state does not match");
    expect(forged.session).to.equal(null);

    const start = await hop(`${platformUrl}/platform/sign-in/oidc`);
    const back = await hop(start.location!);
    const noCookie = await hop(back.location!);
    expect(noCookie.status).to.equal(400);
    expect(noCookie.html).to.include("not started from this browser");
    expect(noCookie.cookies.get("apiary_session") ?? "").to.equal("");

    const garbled = await hop(back.location!, "apiary_oidc_sign_in=enc-not-sealed");
    expect(garbled.status).to.equal(400);
    expect(await linkedUser(provider.user)).to.equal(null);

    // The provider hands each code out once: the same callback again is refused, without a session.
    const done = await signInOverHttp();
    expect(done.status).to.equal(200);
    const replayed = await hop(done.callback.href, done.stateCookie);
    expect(replayed.status).to.equal(400);
    expect(replayed.html).to.include("refused the sign-in code");
    expect(replayed.cookies.get("apiary_session") ?? "").to.equal("");
  });

  it("shows the provider's error and makes no session", async () => {
    const answer = await hop(
      `${platformUrl}${CALLBACK}?error=access_denied&error_description=User%20said%20no&state=x`,
    );
    expect(answer.status).to.equal(400);
    expect(answer.html).to.include("access_denied: User said no");
    expect(answer.cookies.get("apiary_session") ?? "").to.equal("");
  });

  for (const [what, tamper] of [
    ["a wrong nonce", { nonce: "another-sign-in" }],
    ["another audience", { aud: "another-client" }],
    ["a key not in the provider's JWKS", { foreignKey: true }],
  ] as const) {
    it(`refuses an ID token with ${what} (401, no session, no account)`, async () => {
      provider.user = newPerson("tampered");
      provider.tamper = tamper;
      const done = await signInOverHttp();
      expect(done.status, done.html).to.equal(401);
      expect(done.html).to.include("not signed in");
      expect(done.session).to.equal(null);
      expect(await linkedUser(provider.user)).to.equal(null);
    });
  }

  it("links a first sign-in to the account with the same email only when the provider verified it", async () => {
    const email = `linked-${randomUUID()}@corp.example`;
    const existing = await insertAccount(h.deps.ds, { email, passwordHash: await hashPassword("a long password") });

    provider.user = { sub: `unverified-${randomUUID()}`, email, email_verified: false };
    const unverified = await signInOverHttp();
    expect(unverified.status).to.equal(409);
    expect(unverified.html).to.include("does not confirm that the email is yours");
    expect(unverified.session).to.equal(null);
    expect(await linkedUser(provider.user)).to.equal(null);

    // Whoever made the account (open sign-up proves no email) loses its password and sessions at the link.
    const squatter = await postPreSessionForm(platformUrl, "/platform/sign-in", {
      email,
      password: "a long password",
      next: "/platform/account",
    });
    expect(squatter.status).to.equal(303);
    provider.user = { sub: `verified-${randomUUID()}`, email: email.toUpperCase(), email_verified: true };
    const verified = await signInOverHttp();
    expect(verified.status).to.equal(200);
    expect(await linkedUser(provider.user)).to.equal(existing);
    const page = await getWithSession(platformUrl, "/platform/account", verified.session!);
    expect(page.html).to.include(email);
    expect((await getWithSession(platformUrl, "/platform/account", squatter.session!)).status).to.equal(401);
    const again = await postPreSessionForm(platformUrl, "/platform/sign-in", {
      email,
      password: "a long password",
      next: "/platform/account",
    });
    expect(again.status).to.equal(401);
    expect(again.session).to.equal(null);
  });

  it("makes no account for an email the provider does not vouch for", async () => {
    provider.user = newPerson("unvouched", false);
    const refused = await signInOverHttp();
    expect(refused.status).to.equal(403);
    expect(refused.html).to.include("does not confirm that your email address is yours");
    expect(refused.session).to.equal(null);
    const rows = await h.deps.ds.query(`SELECT id FROM users WHERE lower(email) = lower($1)`, [provider.user.email]);
    expect(rows).to.have.length(0);
  });

  it("with sign-up off, refuses a new person but signs in one who has an account", async () => {
    const closed = await platformWith({ signUp: false });
    provider.user = newPerson("stranger");
    const stranger = await signInOverHttp(closed);
    expect(stranger.status).to.equal(403);
    expect(stranger.html).to.include("does not make one");
    expect(stranger.session).to.equal(null);
    const rows = await h.deps.ds.query(`SELECT id FROM users WHERE lower(email) = lower($1)`, [provider.user.email]);
    expect(rows).to.have.length(0);

    const member = newPerson("member");
    const id = await insertAccount(h.deps.ds, { email: member.email!, passwordHash: null });
    provider.user = member;
    const known = await signInOverHttp(closed);
    expect(known.status).to.equal(200);
    expect(await linkedUser(member)).to.equal(id);
  });

  it("answers 502 when the provider cannot be reached, and 404 where none is configured", async () => {
    const unreachable = await platformWith({ issuer: "http://127.0.0.1:9" });
    const start = await hop(`${unreachable}/platform/sign-in/oidc`);
    expect(start.status).to.equal(502);
    expect(start.html).to.include("could not be reached");
    const none = await hop(`${h.platformUrl}/platform/sign-in/oidc`);
    expect(none.status).to.equal(404);
  });

  it("answers 502, with no session, when the provider refuses the client's secret or its keys cannot be had", async () => {
    const wrongSecret = await platformWith({ clientSecret: "not-the-secret" });
    provider.user = newPerson("misconfigured");
    const refused = await signInOverHttp(wrongSecret);
    expect(refused.status).to.equal(502);
    expect(refused.html).to.include("check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET");
    expect(refused.session).to.equal(null);
    expect(refused.html).not.to.include("not-the-secret");

    // Another provider, so no signing keys are cached yet.
    const keyless = await startOidcProvider();
    closers.push(() => keyless.close());
    keyless.jwksDown = true;
    keyless.user = newPerson("keyless");
    const url = await platformWith({
      issuer: keyless.issuer,
      clientId: keyless.clientId,
      clientSecret: keyless.clientSecret,
    });
    const noKeys = await signInOverHttp(url);
    expect(noKeys.status).to.equal(502);
    expect(noKeys.html).to.include("signing keys");
    expect(noKeys.session).to.equal(null);
  });

  it("keeps the client secret out of logs, pages and the provider's redirects", async () => {
    const logs = captureLogs();
    let seen = "";
    try {
      provider.user = newPerson("secret");
      const done = await signInOverHttp();
      expect(done.status).to.equal(200);
      const signInPage = await hop(`${platformUrl}/platform/sign-in`);
      provider.tamper = { nonce: "wrong" };
      const refused = await signInOverHttp();
      seen = [done.html, done.start.location, done.callback.href, signInPage.html, refused.html].join("\n");
    } finally {
      logs.stop();
    }
    expect(JSON.stringify(logs.lines)).not.to.include(provider.clientSecret);
    expect(seen).not.to.include(provider.clientSecret);
    expect(await postgresText(h.deps.ds)).not.to.include(provider.clientSecret);
    expect(await redisText(h.deps.redis)).not.to.include(provider.clientSecret);
    // The secret did reach the one place it is for: the token endpoint took the client's credentials.
    expect(provider.refusals).not.to.include("client authentication");
  });
});
