import { expect } from "chai";
import { SignJWT } from "jose";
import { harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { SessionTokens } from "../../../api/services/session-tokens";

describe("platform app: errors and authentication", () => {
  it("answers unknown paths with the platform error body", async () => {
    const h = await harness();
    const res = await request(h.platformUrl, "GET", "/api/nothing-here");
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ error: "Not found", status_code: 404 });
    expect(res.body.message).to.be.a("string");
  });

  it("verifies HS256 session tokens and maps sub to a user", async () => {
    
    const sessions = new SessionTokens({ jwtSecret: "a-test-secret-of-some-length", jwksUrl: "", issuer: "", audience: "" });
    const sub = "7d0c2a4e-1f7b-4c55-9a8e-2b6f4f7a9c01";
    const good = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setExpirationTime("5m").sign(new TextEncoder().encode("a-test-secret-of-some-length"));
    const forged = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setExpirationTime("5m").sign(new TextEncoder().encode("another-secret-entirely!!"));
    const expired = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(new TextEncoder().encode("a-test-secret-of-some-length"));
    expect(await sessions.userId(good)).to.equal(sub);
    expect(await sessions.userId(forged)).to.equal(null);
    expect(await sessions.userId(expired)).to.equal(null);
    expect(await sessions.userId("sk-not-a-jwt")).to.equal(null);
  });
});
