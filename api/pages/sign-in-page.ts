import type { Context } from "koa";
import { config } from "../../shared/config";
import { API_KEYS_PATH, preSessionOf, SIGN_IN_PATH } from "./cookies";
import { createSignInCsrfToken } from "./csrf-tokens";
import { renderPage } from "./render";

/** Where to go after signing in: a path on this site only, never another site (no open redirect). */
export function localPath(value: unknown): string {
  return typeof value === "string" && value.length <= 512 && /^\/(?![/\\])[\x21-\x7e]*$/.test(value)
    ? value
    : API_KEYS_PATH;
}

/** What the sign-in page shows besides its form. */
interface SignInOptions {
  next?: string;
  error?: string;
  /** A sign-in link's token, verified, waiting for the person at the browser to confirm it. */
  offered?: { token: string; userId: string };
}

/**
 * The page that explains how to sign in (status 401 where signing in is required). Its form carries
 * a form token bound to the browser's pre-session cookie (set here if it has none), so only a
 * browser that loaded this page can sign in with it.
 */
export function renderSignIn(ctx: Context, status: number, options: SignInOptions = {}): void {
  renderPage(ctx, status, "sign-in", {
    next: localPath(options.next),
    error: options.error ?? null,
    offered: options.offered ?? null,
    signInCsrf: createSignInCsrfToken(preSessionOf(ctx)),
    signInAddress: `${config.http.platformUrl}${SIGN_IN_PATH}`,
    signInUrl: config.platform.signInUrl || null,
  });
}
