import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { CredentialSlot } from "./operations";

/** Credentials that must be refused, made once per run. */
export interface RefusedCredentials {
  revokedKey: string;
  /** A session JWT whose header says `alg: none` and which carries no signature. */
  unsignedJwt: string;
  expiredJwt: string;
  /** Signed, but with a secret the server does not know. */
  forgedJwt: string;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function makeRefusedCredentials(sessionSecret: string, revokedKey: string): Promise<RefusedCredentials> {
  const now = Math.floor(Date.now() / 1000);
  const sub = randomUUID();
  const sign = (secret: string, claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(sub)
      .sign(new TextEncoder().encode(secret));
  return {
    revokedKey,
    unsignedJwt: `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ sub, iat: now, exp: now + 3600 })}.`,
    expiredJwt: await sign(sessionSecret, { iat: now - 7200, exp: now - 3600 }),
    forgedJwt: await sign(`${sessionSecret}-not-the-server's`, { iat: now, exp: now + 3600 }),
  };
}

/** Header values as sent on the wire: a latin1 string holding these UTF-8 bytes. */
export const utf8Bytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

/**
 * Header sets that must not authenticate, each named. The token-shaped ones go in every slot the
 * operation documents (an `x-api-key` header, a bearer token), one probe per slot.
 */
export function badCredentialHeaders(
  slots: CredentialSlot[],
  refused: RefusedCredentials,
): { name: string; headers: Record<string, string> }[] {
  const sets: { name: string; headers: Record<string, string> }[] = [
    { name: "no credentials", headers: {} },
    { name: "Authorization: Bearer (no token)", headers: { authorization: "Bearer" } },
    { name: "Authorization: Bearer and spaces", headers: { authorization: "Bearer    " } },
    { name: "Authorization: empty", headers: { authorization: "" } },
    {
      name: "Authorization: Basic",
      headers: { authorization: `Basic ${Buffer.from("user:password").toString("base64")}` },
    },
    { name: "Authorization: two bearer tokens", headers: { authorization: "Bearer a Bearer b" } },
  ];
  const tokens: [string, string][] = [
    ["a very long token", `sk-${"k".repeat(8_000)}`],
    ["a non-ASCII token", utf8Bytes("sk-ключ-🔑")],
    ["a revoked key", refused.revokedKey],
    ["a session JWT with alg none", refused.unsignedJwt],
    ["an expired session JWT", refused.expiredJwt],
    ["a session JWT signed with another secret", refused.forgedJwt],
  ];
  for (const slot of dedupe(slots)) {
    if (slot.in === "header") {
      sets.push({ name: `${slot.name}: empty`, headers: { [slot.name]: "" } });
      for (const [label, token] of tokens)
        sets.push({ name: `${slot.name}: ${label}`, headers: { [slot.name]: token } });
    } else {
      for (const [label, token] of tokens)
        sets.push({ name: `Bearer ${label}`, headers: { authorization: `Bearer ${token}` } });
    }
  }
  return sets;
}

function dedupe(slots: CredentialSlot[]): CredentialSlot[] {
  const seen = new Set<string>();
  return slots.filter((slot) => {
    const id = slot.in === "header" ? `h:${slot.name}` : "bearer";
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
