import { documentRoutes } from "../openapi/operation";
import { signInOperations } from "./pages.openapi";
import Router from "@koa/router";
import type { Context } from "koa";
import type { ApiDeps } from "../deps";
import { clearSessionCookie, setSessionCookie } from "./cookies";
import { formField, plainForm, signedInForm } from "./page-forms";
import { pageErrors } from "./page-errors";
import { pageSession, type PageViewer } from "./page-session";
import { renderPage } from "./render";
import { localPath, renderSignIn, SIGN_IN_PATH } from "./sign-in-page";

/**
 * Signing in: the identity backend hands the browser a session token, either as
 * `GET /platform/sign-in?token=…` (a redirect) or as a form post; a valid token is kept in an
 * HttpOnly, SameSite=Strict cookie. `POST /platform/sign-out` forgets it.
 */
export function signInRouter(deps: Pick<ApiDeps, "sessions">): Router {
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
    await signIn(ctx, token, localPath(next));
  });

  router.post(SIGN_IN_PATH, plainForm(), async (ctx) => {
    await signIn(ctx, formField(ctx, "token"), localPath(formField(ctx, "next")));
  });

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
