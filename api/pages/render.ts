import { join } from "node:path";
import { Eta } from "eta";
import { config } from "../../shared/config";
import type { Context } from "koa";
import { createCsrfToken } from "./csrf-tokens";
import { API_KEYS_PATH } from "./cookies";
import { isModeratorViewer, viewerOf } from "./page-session";

/**
 * Templates in `views/`, one layout. Eta escapes every `<%= %>` output (autoEscape is on by default
 * and must stay on); the layout's `<%~ it.body %>` is the only raw output.
 */
const eta = new Eta({ views: join(__dirname, "views"), autoEscape: true, cache: true });

/*
 * The pages run no script at all, so the policy allows none; styles are inline in the layout,
 * images come from this site only (listing images are the platform's stored copies, so no
 * viewer's browser asks a seller's server), forms post only to this site, and no page can be
 * framed. No referrer: the sign-in address carries a session token.
 */
const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  // Pages differ by viewer (owners see their paid prompt text; a new key is shown once).
  "Cache-Control": "no-store",
};

/** Renders `views/<view>.eta` inside the layout as the response, with the page headers. */
export function renderPage(ctx: Context, status: number, view: string, data: Record<string, unknown>): void {
  const viewer = viewerOf(ctx);
  ctx.status = status;
  ctx.set(PAGE_HEADERS);
  ctx.type = "text/html; charset=utf-8";
  ctx.body = eta.render(`./${view}`, {
    ...data,
    apiKeysPath: API_KEYS_PATH,
    // Signing out is a form too; a cookie session needs a form token for it.
    viewer: viewer
      ? {
          userId: viewer.userId,
          name: viewer.name,
          moderates: isModeratorViewer(viewer),
          csrf: viewer.via === "cookie" ? createCsrfToken(viewer.token) : null,
        }
      : null,
    signUpOpen: config.platform.accounts.signUpMode !== "closed",
  });
}

/** A page with a title and one paragraph: not found, refused, failed. */
export function renderMessage(ctx: Context, status: number, title: string, message: string): void {
  renderPage(ctx, status, "message", { title, message, status });
}

export function renderNotFound(ctx: Context, what: string): void {
  renderMessage(
    ctx,
    404,
    "Not found",
    `There is no ${what} at this address. It may never have existed, or it is not public.`,
  );
}
