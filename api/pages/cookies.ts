import { randomBytes } from "node:crypto";
import type { Context } from "koa";
import { config } from "../../shared/config";

/** The signed-in session: an Apiary session token or the identity backend's, kept where page scripts cannot read it. */
export const SESSION_COOKIE = "apiary_session";
/** A key just created, sealed, waiting to be shown once on the next page load. */
export const NEW_KEY_COOKIE = "apiary_new_key";
/**
 * A random id the sign-in form's token is bound to, before there is a session: only a browser that
 * loaded our sign-in form can post it (login CSRF). Dropped once it has served a sign-in.
 */
export const PRE_SESSION_COOKIE = "apiary_pre_session";
/** A sign-in through the OpenID Connect provider under way: its state, nonce and PKCE verifier, sealed. */
export const OIDC_STATE_COOKIE = "apiary_oidc_sign_in";
export const API_KEYS_PATH = "/platform/api-keys";
export const SIGN_IN_PATH = "/platform/sign-in";
export const OIDC_SIGN_IN_PATH = "/platform/sign-in/oidc";
/** Where the provider sends the browser back: the redirect URL registered at the provider. */
export const OIDC_CALLBACK_PATH = "/platform/sign-in/oidc/callback";
export const ACCOUNT_PATH = "/platform/account";
/** Where the pre-session cookie is sent: the sign-in and sign-up forms both live under it. */
const PRE_SESSION_PATH = "/platform";

/** Secure whenever the platform is served over https, even when TLS ends at a proxy in front of it. */
function secure(ctx: Context): boolean {
  const https = config.http.platformUrl.startsWith("https:");
  // Koa refuses Secure cookies on what it thinks is plain http; behind a TLS-ending proxy it is not.
  if (https) ctx.cookies.secure = true;
  return https;
}

/** HttpOnly + SameSite=Strict: other sites can neither read the cookie nor make the browser send it. */
function strict(ctx: Context, path: string, expires?: Date) {
  return {
    httpOnly: true,
    sameSite: "strict" as const,
    secure: secure(ctx),
    path,
    overwrite: true,
    ...(expires ? { expires } : {}),
  };
}

export function setSessionCookie(ctx: Context, token: string, expiresAt: Date | null): void {
  ctx.cookies.set(SESSION_COOKIE, token, strict(ctx, "/", expiresAt ?? undefined));
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, null, strict(ctx, "/"));
}

export function setNewKeyCookie(ctx: Context, sealed: string): void {
  ctx.cookies.set(NEW_KEY_COOKIE, sealed, { ...strict(ctx, API_KEYS_PATH), maxAge: 5 * 60_000 });
}

export function clearNewKeyCookie(ctx: Context): void {
  ctx.cookies.set(NEW_KEY_COOKIE, null, strict(ctx, API_KEYS_PATH));
}

/**
 * Lax, not Strict: the provider sends the browser back to the callback from its own site, a
 * top-level GET that carries Lax cookies and not Strict ones. Only the callback path receives it.
 */
export function setOidcStateCookie(ctx: Context, sealed: string, maxAgeMs: number): void {
  ctx.cookies.set(OIDC_STATE_COOKIE, sealed, { ...strict(ctx, OIDC_CALLBACK_PATH), sameSite: "lax", maxAge: maxAgeMs });
}

export function clearOidcStateCookie(ctx: Context): void {
  ctx.cookies.set(OIDC_STATE_COOKIE, null, { ...strict(ctx, OIDC_CALLBACK_PATH), sameSite: "lax" });
}

/** The browser's pre-session id: this request's new one, its cookie's, else a new one set now (HttpOnly, Strict). */
export function preSessionOf(ctx: Context): string {
  const rotated = ctx.state.preSession as string | undefined;
  if (rotated) return rotated;
  const existing = ctx.cookies.get(PRE_SESSION_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  return rotatePreSession(ctx);
}

/** A new pre-session id, replacing the cookie's: a sign-in form's token is good for one sign-in. */
export function rotatePreSession(ctx: Context): string {
  const fresh = randomBytes(32).toString("base64url");
  ctx.state.preSession = fresh;
  ctx.cookies.set(PRE_SESSION_COOKIE, fresh, { ...strict(ctx, PRE_SESSION_PATH), maxAge: 60 * 60_000 });
  return fresh;
}
