import type { Context } from "koa";
import { config } from "../../shared/config";
import type { AccountSettings } from "../../shared/config/accounts";
import { SIGN_UP_PATH } from "../../shared/auth/invites";
import { MAX_PASSWORD_LENGTH } from "../../shared/auth/passwords";
import { API_KEYS_PATH, OIDC_SIGN_IN_PATH, preSessionOf, SIGN_IN_PATH } from "./cookies";
import { createSignInCsrfToken } from "./csrf-tokens";
import { renderPage } from "./render";

/** Where to go after signing in: a path on this site only, never another site (no open redirect). */
export function localPath(value: unknown): string {
  return typeof value === "string" && value.length <= 512 && /^\/(?![/\\])[\x21-\x7e]*$/.test(value)
    ? value
    : API_KEYS_PATH;
}

/** What the sign-in page shows besides its forms. */
interface SignInOptions {
  next?: string;
  error?: string;
  /** The email a failed password sign-in was tried with, filled in again. */
  email?: string;
  /** A sign-in link's token, verified, waiting for the person at the browser to confirm it. */
  offered?: { token: string; userId: string };
  /** The deployment's account settings (sign-up mode, OpenID Connect); the configuration's unless given. */
  accounts?: AccountSettings;
}

/**
 * The page that explains how to sign in (status 401 where signing in is required): with an email
 * and password, through the company's OpenID Connect provider when one is configured, or with a session
 * token of the identity backend. Its forms carry a form token bound to the browser's pre-session
 * cookie (set here if it has none), so only a browser that loaded this page can sign in with it.
 */
export function renderSignIn(ctx: Context, status: number, options: SignInOptions = {}): void {
  const accounts = options.accounts ?? config.platform.accounts;
  const next = localPath(options.next);
  renderPage(ctx, status, "sign-in", {
    next,
    error: options.error ?? null,
    email: options.email ?? "",
    offered: options.offered ?? null,
    signInCsrf: createSignInCsrfToken(preSessionOf(ctx)),
    signInAddress: `${config.http.platformUrl}${SIGN_IN_PATH}`,
    signInUrl: config.platform.signInUrl || null,
    identityBackend: Boolean(config.platform.session.jwtSecret || config.platform.session.jwksUrl),
    signUpPath: accounts.signUpMode === "open" ? `${SIGN_UP_PATH}?next=${encodeURIComponent(next)}` : null,
    oidc: accounts.oidc
      ? { label: accounts.oidc.buttonLabel, path: `${OIDC_SIGN_IN_PATH}?next=${encodeURIComponent(next)}` }
      : null,
    maxPasswordLength: MAX_PASSWORD_LENGTH,
  });
}
