import type { Context } from "koa";
import { config } from "../../shared/config";

/** The signed-in session: the identity backend's token, kept where page scripts cannot read it. */
export const SESSION_COOKIE = "apiary_session";
/** A key just created, sealed, waiting to be shown once on the next page load. */
export const NEW_KEY_COOKIE = "apiary_new_key";
export const API_KEYS_PATH = "/platform/api-keys";

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
