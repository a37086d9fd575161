import { documentRoutes } from "../openapi/operation";
import { signInOperations } from "./pages.openapi";
import Router from "@koa/router";
import type { Context } from "koa";
import { config } from "../../shared/config";
import type { ApiDeps } from "../deps";
import { endAccountSession } from "../auth/account-sessions";
import { attemptRefusal } from "../auth/sign-in-attempts";
import { checkPassword, seeOther, signInAs, WRONG_CREDENTIALS } from "./account-sign-in";
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie, SIGN_IN_PATH } from "./cookies";
import { formField, signedInForm, signInForm } from "./page-forms";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf, viewerOfToken } from "./page-session";
import { renderPage } from "./render";
import { localPath, renderSignIn } from "./sign-in-page";
import { firstSignInOf } from "./used-sign-in-forms";

/** Longest email taken (RFC 5321's path limit). */
const MAX_EMAIL_LENGTH = 254;

/**
 * Signing in, three ways, all through the one sign-in form (its pre-session form token stops login
 * CSRF): an account's email and password (`POST /platform/sign-in` with `email` and `password`),
 * rate-limited per email and per client address; or the identity backend's session token, which
 * hands the browser one as `GET /platform/sign-in?token=…` (a redirect) that only offers the
 * sign-in: the page names the account and the person at the browser confirms with a form post,
 * as they do when they paste a token (`token`). A link from another site cannot sign anyone in.
 * `POST /platform/sign-out` ends the session.
 */
export function signInRouter(deps: Pick<ApiDeps, "sessions" | "redis" | "ds" | "accounts">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));
  const signInPage = (ctx: Context, status: number, options: Parameters<typeof renderSignIn>[2] = {}) =>
    renderSignIn(ctx, status, { ...options, accounts: deps.accounts });

  async function signInWithToken(ctx: Context, token: string, next: string): Promise<void> {
    const verified = token ? await deps.sessions.verify(token.trim()) : null;
    if (!verified)
      return signInPage(ctx, 401, {
        next,
        error: "That session token is not valid (it may have expired). Sign in again.",
      });
    // The session this one replaces ends, as at a password sign-in: it would otherwise stay valid unseen.
    const earlier = ctx.cookies.get(SESSION_COOKIE);
    if (earlier && earlier !== token.trim()) await endAccountSession(deps.ds, earlier);
    setSessionCookie(ctx, token.trim(), verified.expiresAt);
    ctx.state.viewer = await viewerOfToken(deps.sessions, token.trim(), "cookie");
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

  async function signInWithPassword(ctx: Context, next: string): Promise<void> {
    const email = formField(ctx, "email").trim();
    const password = formField(ctx, "password");
    if (!email || email.length > MAX_EMAIL_LENGTH || !password)
      return signInPage(ctx, 400, { next, email: email.slice(0, MAX_EMAIL_LENGTH), error: WRONG_CREDENTIALS });
    const wait = await attemptRefusal(deps.redis, deps.accounts, { address: ctx.ip, email });
    if (wait !== null) {
      ctx.set("Retry-After", String(wait));
      return signInPage(ctx, 429, {
        next,
        email,
        error: `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60)} minutes.`,
      });
    }
    const userId = await checkPassword(deps.ds, email, password);
    if (!userId) return signInPage(ctx, 401, { next, email, error: WRONG_CREDENTIALS });
    await signInAs(ctx, deps, userId, config.platform.session.maxAgeSeconds);
    seeOther(ctx, next);
  }

  router.get(SIGN_IN_PATH, async (ctx) => {
    const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
    const next = typeof ctx.query.next === "string" ? ctx.query.next : undefined;
    if (!token) return signInPage(ctx, 200, { next });
    // A GET changes nothing: it shows whose account the link is for and waits for a confirmation.
    const verified = await deps.sessions.verify(token.trim());
    if (!verified)
      return signInPage(ctx, 401, {
        next,
        error: "That session token is not valid (it may have expired). Sign in again.",
      });
    signInPage(ctx, 200, { next, offered: { token: token.trim(), userId: verified.userId } });
  });

  router.post(
    SIGN_IN_PATH,
    signInForm((preSession) => firstSignInOf(deps.redis, preSession)),
    async (ctx) => {
      const next = localPath(formField(ctx, "next"));
      if (formField(ctx, "token")) return signInWithToken(ctx, formField(ctx, "token"), next);
      await signInWithPassword(ctx, next);
    },
  );

  router.post("/platform/sign-out", signedInForm(SIGN_IN_PATH), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    // An Apiary session ends for good; the identity backend's token is only forgotten here.
    if (viewer.kind === "account") await endAccountSession(deps.ds, viewer.token);
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
