import { createHmac } from "node:crypto";
import Tokens from "csrf";
import { config } from "../../shared/config";

const tokens = new Tokens();

/**
 * What a form token is bound to: a signed-in session (its session token), or, before there is
 * one, the sign-in form's pre-session cookie. The two never share a secret.
 */
type Binding = { session: string } | { preSession: string };

/**
 * The CSRF secret of one binding, derived with HMAC, so no server-side session store is needed and
 * a new sign-in gets new form tokens.
 */
function secretOf(binding: Binding): string {
  const input = "session" in binding ? `csrf:${binding.session}` : `csrf-pre-session:${binding.preSession}`;
  return createHmac("sha256", config.secretsKey).update(input).digest("base64url");
}

/** A fresh form token for this session (salted: each page gets a different one, all valid). */
export function createCsrfToken(sessionToken: string): string {
  return tokens.create(secretOf({ session: sessionToken }));
}

/** Whether a submitted form token belongs to this session (compared in constant time). */
export function isValidCsrfToken(sessionToken: string, submitted: unknown): boolean {
  return isValid({ session: sessionToken }, submitted);
}

/** A form token for the sign-in form, bound to the browser's pre-session cookie. */
export function createSignInCsrfToken(preSession: string): string {
  return tokens.create(secretOf({ preSession }));
}

/** Whether a submitted sign-in form token belongs to this pre-session cookie. */
export function isValidSignInCsrfToken(preSession: string, submitted: unknown): boolean {
  return preSession.length > 0 && isValid({ preSession }, submitted);
}

function isValid(binding: Binding, submitted: unknown): boolean {
  return typeof submitted === "string" && submitted.length > 0 && tokens.verify(secretOf(binding), submitted);
}
