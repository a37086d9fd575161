import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { SignJWT, type JWTPayload } from "jose";
import { SessionTokens, type SessionSettings } from "../../api/auth/session-tokens";

const SECRET = "a-session-secret-of-at-least-32-bytes";
const MAX_AGE_S = 3_600;
const DEVELOPMENT: SessionSettings = {
  jwtSecret: SECRET,
  jwksUrl: "",
  issuer: "",
  audience: "",
  maxAgeSeconds: MAX_AGE_S,
};
const PRODUCTION: SessionSettings = { ...DEVELOPMENT, issuer: "https://id.example.com", audience: "apiary-platform" };

const now = () => Math.floor(Date.now() / 1000);

/** An HS256 token with exactly these claims (nothing added): `sub` is a fresh user id unless given. */
function token(claims: JWTPayload, secret = SECRET, alg = "HS256"): Promise<string> {
  return new SignJWT({ sub: randomUUID(), ...claims })
    .setProtectedHeader({ alg })
    .sign(new TextEncoder().encode(secret));
}

describe("session tokens", () => {
  const dev = new SessionTokens(DEVELOPMENT);
  const prod = new SessionTokens(PRODUCTION);

  it("accepts a signed, fresh token with exp and iat and maps sub to the user, lower-cased", async () => {
    const sub = randomUUID();
    const verified = await dev.verify(await token({ sub: sub.toUpperCase(), iat: now(), exp: now() + 300 }));
    expect(verified?.userId).to.equal(sub);
    expect(verified?.expiresAt.getTime()).to.be.closeTo((now() + 300) * 1000, 2_000);
  });

  it("refuses forged, expired, unsigned and malformed tokens, and other algorithms", async () => {
    const fresh = { iat: now(), exp: now() + 300 };
    expect(await dev.userId(await token(fresh, "another-secret-entirely-of-32-bytes!"))).to.equal(null);
    expect(await dev.userId(await token({ iat: now() - 600, exp: now() - 60 }))).to.equal(null);
    expect(await dev.userId(await token(fresh, SECRET, "HS512"))).to.equal(null);
    const [header, payload] = (await token(fresh)).split(".");
    expect(await dev.userId(`${header}.${payload}.`)).to.equal(null);
    expect(await dev.userId("sk-not-a-jwt")).to.equal(null);
    expect(await dev.userId(await token({ ...fresh, sub: "not-a-uuid" }))).to.equal(null);
  });

  it("refuses a token without exp, or without iat", async () => {
    expect(await dev.userId(await token({ iat: now() }))).to.equal(null);
    expect(await dev.userId(await token({ exp: now() + 300 }))).to.equal(null);
  });

  it("refuses a token made to live longer than SESSION_MAX_AGE_SECONDS, or issued longer ago", async () => {
    expect(await dev.userId(await token({ iat: now(), exp: now() + MAX_AGE_S }))).to.be.a("string"); // the limit itself
    expect(await dev.userId(await token({ iat: now(), exp: now() + MAX_AGE_S + 60 }))).to.equal(null);
    expect(await dev.userId(await token({ iat: now(), exp: now() + 365 * 86_400 }))).to.equal(null);
    expect(await dev.userId(await token({ iat: now() - MAX_AGE_S - 120, exp: now() + 60 }))).to.equal(null);
    expect(await dev.userId(await token({ iat: now() + 600, exp: now() + 900 }))).to.equal(null); // issued in the future
  });

  it("with production settings, requires the configured issuer and audience", async () => {
    const fresh = { iat: now(), exp: now() + 300 };
    expect(await prod.userId(await token({ ...fresh, iss: PRODUCTION.issuer, aud: PRODUCTION.audience }))).to.be.a(
      "string",
    );
    expect(
      await prod.userId(await token({ ...fresh, iss: PRODUCTION.issuer, aud: ["other-service", PRODUCTION.audience] })),
    ).to.be.a("string");
    expect(
      await prod.userId(await token({ ...fresh, iss: "https://evil.example.com", aud: PRODUCTION.audience })),
    ).to.equal(null);
    expect(await prod.userId(await token({ ...fresh, iss: PRODUCTION.issuer, aud: "other-service" }))).to.equal(null);
    expect(await prod.userId(await token({ ...fresh, aud: PRODUCTION.audience }))).to.equal(null);
    expect(await prod.userId(await token({ ...fresh, iss: PRODUCTION.issuer }))).to.equal(null);
  });
});
