import { createHmac } from "node:crypto";
import Tokens from "csrf";
import { config } from "../../shared/config";

const tokens = new Tokens();

/**
 * The CSRF secret of one session, derived with HMAC from its session token, so no server-side
 * session store is needed and a new sign-in gets new form tokens.
 */
function secretOf(sessionToken: string): string {
  return createHmac("sha256", config.secretsKey).update(`csrf:${sessionToken}`).digest("base64url");
}

/** A fresh form token for this session (salted: each page gets a different one, all valid). */
export function createCsrfToken(sessionToken: string): string {
  return tokens.create(secretOf(sessionToken));
}

/** Whether a submitted form token belongs to this session (compared in constant time). */
export function isValidCsrfToken(sessionToken: string, submitted: unknown): boolean {
  return typeof submitted === "string" && submitted.length > 0 && tokens.verify(secretOf(sessionToken), submitted);
}
