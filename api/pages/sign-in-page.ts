import type { Context } from "koa";
import { config } from "../../shared/config";
import { API_KEYS_PATH } from "./cookies";
import { renderPage } from "./render";

export const SIGN_IN_PATH = "/platform/sign-in";

/** Where to go after signing in: a path on this site only, never another site (no open redirect). */
export function localPath(value: unknown): string {
  return typeof value === "string" && value.length <= 512 && /^\/(?![/\\])[\x21-\x7e]*$/.test(value)
    ? value
    : API_KEYS_PATH;
}

/** The page that explains how to sign in (status 401 where signing in is required). */
export function renderSignIn(ctx: Context, status: number, options: { next?: string; error?: string } = {}): void {
  renderPage(ctx, status, "sign-in", {
    next: localPath(options.next),
    error: options.error ?? null,
    signInAddress: `${config.http.platformUrl}${SIGN_IN_PATH}`,
    signInUrl: config.platform.signInUrl || null,
  });
}
