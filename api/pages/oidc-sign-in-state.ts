import { createHash, randomBytes } from "node:crypto";
import { seal, unseal } from "../../shared/secrets/sealed";

/** How long the person has at the provider before the sign-in must start again. */
export const OIDC_STATE_TTL_MS = 10 * 60_000;

/** One sign-in through the provider, from the redirect there to the callback. */
export interface OidcSignInState {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to go once signed in (a local path). */
  next: string;
  until: number;
}

const BINDING = { purpose: "oidc-sign-in" as const };

const random = () => randomBytes(32).toString("base64url");

/** A new sign-in's random state, nonce and PKCE verifier (RFC 7636: 43 characters of 32 random bytes). */
export function newOidcSignIn(next: string): OidcSignInState {
  return { state: random(), nonce: random(), codeVerifier: random(), next, until: Date.now() + OIDC_STATE_TTL_MS };
}

/** PKCE's S256 challenge of a verifier. */
export function codeChallengeOf(codeVerifier: string): string {
  return createHash("sha256").update(codeVerifier).digest("base64url");
}

/** Sealed (AES-GCM, from `SECRETS_KEY`) for the state cookie: the browser can neither read nor alter it. */
export function sealOidcSignIn(signIn: OidcSignInState): string {
  return Buffer.from(seal(JSON.stringify(signIn), BINDING)).toString("base64url");
}

/** The sign-in a state cookie holds, when it is intact and not expired; else null. */
export function openOidcSignIn(value: string | undefined): OidcSignInState | null {
  if (!value) return null;
  try {
    const signIn = JSON.parse(unseal(Buffer.from(value, "base64url").toString("utf8"), BINDING)) as OidcSignInState;
    return signIn.until > Date.now() ? signIn : null;
  } catch {
    return null; // tampered, truncated, or sealed with another SECRETS_KEY
  }
}
