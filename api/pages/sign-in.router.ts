import { documentRoutes } from "../openapi/operation";
import { signInOperations } from "./pages.openapi";
import Router from "@koa/router";
import type { Context } from "koa";
import type { ApiDeps } from "../deps";
import { clearSessionCookie, setSessionCookie, SIGN_IN_PATH } from "./cookies";
import { formField, signedInForm, signInForm } from "./page-forms";
import { pageErrors } from "./page-errors";
import { pageSession, type PageViewer } from "./page-session";
import { renderPage } from "./render";
import { localPath, renderSignIn } from "./sign-in-page";
import { firstSignInOf } from "./used-sign-in-forms";

/**
 * Signing in: the identity backend hands the browser a session token as
 * `GET /platform/sign-in?token=…` (a redirect), which only offers the sign-in: the page names the
 * account and the person at the browser confirms with a form post, as they do when they paste a
 * token. Only that post, from this site with its pre-session form token, signs in (a link from
 * another site cannot). A valid token is kept in an HttpOnly, SameSite=Strict cookie, replacing
 * any earlier session. `POST /platform/sign-out` forgets it.
 */
export function signInRouter(deps: Pick<ApiDeps, "sessions" | "redis">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  async function signIn(ctx: Context, token: string, next: string): Promise<void> {
    const verified = token ? await deps.sessions.verify(token.trim()) : null;
    if (!verified)
      return renderSignIn(ctx, 401, {
        next,
        error: "That session token is not valid (it may have expired). Sign in again.",
      });
    setSessionCookie(ctx, token.trim(), verified.expiresAt);
    ctx.state.viewer = { userId: verified.userId, token: token.trim(), via: "cookie" } satisfies PageViewer;
    // A page rather than a redirect: after a hop from the identity backend's site, a browser would
    // not send the new SameSite=Strict cookie along a redirect; a refresh from this page it sends.
    renderPage(ctx, 200, "message", {
      title: "Signed in",
      message: "You are signed in.",
      status: 200,
      link: { href: localPath(next), text: "Continue" },
      refreshTo: localPath(next),
    });
  }

  router.get(SIGN_IN_PATH, async (ctx) => {
    const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
    const next = typeof ctx.query.next === "string" ? ctx.query.next : undefined;
    if (!token) return renderSignIn(ctx, 200, { next });
    // A GET changes nothing: it shows whose account the link is for and waits for a confirmation.
    const verified = await deps.sessions.verify(token.trim());
    if (!verified)
      return renderSignIn(ctx, 401, {
        next,
        error: "That session token is not valid (it may have expired). Sign in again.",
      });
    renderSignIn(ctx, 200, { next, offered: { token: token.trim(), userId: verified.userId } });
  });

  router.post(
    SIGN_IN_PATH,
    signInForm((preSession) => firstSignInOf(deps.redis, preSession)),
    async (ctx) => {
      await signIn(ctx, formField(ctx, "token"), localPath(formField(ctx, "next")));
    },
  );

  router.post("/platform/sign-out", signedInForm(SIGN_IN_PATH), async (ctx) => {
    clearSessionCookie(ctx);
    ctx.state.viewer = null;
    renderPage(ctx, 200, "message", {
      title: "Signed out",
      message: "You are signed out.",
      status: 200,
      link: { href: SIGN_IN_PATH, text: "Sign in again" },
    });
  });
  return documentRoutes(router, ...signInOperations);
}
