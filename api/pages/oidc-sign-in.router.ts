import Router from "@koa/router";
import type { Context } from "koa";
import { config } from "../../shared/config";
import type { OidcSettings } from "../../shared/config/accounts";
import type { ApiDeps } from "../deps";
import { accountForIdentity } from "../auth/oidc-accounts";
import {
  authorizationUrl,
  exchangeCode,
  type OidcProvider,
  OidcSignInError,
  oidcProvider,
  verifyIdToken,
} from "../auth/oidc-client";
import { documentRoutes } from "../openapi/operation";
import { signInAs } from "./account-sign-in";
import {
  clearOidcStateCookie,
  OIDC_CALLBACK_PATH,
  OIDC_SIGN_IN_PATH,
  OIDC_STATE_COOKIE,
  setOidcStateCookie,
  SIGN_IN_PATH,
} from "./cookies";
import {
  codeChallengeOf,
  newOidcSignIn,
  OIDC_STATE_TTL_MS,
  openOidcSignIn,
  sealOidcSignIn,
} from "./oidc-sign-in-state";
import { pageErrors } from "./page-errors";
import { pageSession } from "./page-session";
import { oidcSignInOperations } from "./pages.openapi";
import { renderPage } from "./render";
import { localPath } from "./sign-in-page";

/** Longest provider error code or description shown back on the page. */
const MAX_SHOWN = 200;

/** The redirect URL registered at the provider: `PLATFORM_URL` and the callback path, unless the settings name one. */
function redirectUriOf(settings: OidcSettings): string {
  return settings.redirectUri ?? `${config.http.platformUrl}${OIDC_CALLBACK_PATH}`;
}

/** A failed sign-in: a page that says what happened, with the way back to the sign-in page; no session. */
function refuse(ctx: Context, status: number, message: string): void {
  renderPage(ctx, status, "message", {
    title: "Not signed in",
    message,
    status,
    link: { href: SIGN_IN_PATH, text: "Back to sign-in" },
  });
}

/**
 * Sign-in through the company's OpenID Connect provider (when `OIDC_ISSUER` is set): the
 * authorization code flow with PKCE. `GET /platform/sign-in/oidc` sends the browser to the
 * provider with a fresh `state` and `nonce`, kept sealed in a short-lived cookie with the PKCE
 * verifier and `next`; the callback checks the state against the cookie, trades the code for an ID
 * token, verifies it, finds (or links, or makes) the account and starts an Apiary session as a
 * password sign-in does. Every failure is a page saying what happened, never a session.
 */
export function oidcSignInRouter(deps: Pick<ApiDeps, "sessions" | "ds" | "accounts">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));
  const settings = deps.accounts.oidc;

  router.get(OIDC_SIGN_IN_PATH, async (ctx) => {
    if (!settings) return refuse(ctx, 404, "Signing in through an OpenID Connect provider is not set up here.");
    let provider: OidcProvider;
    try {
      provider = await oidcProvider(settings);
    } catch (err) {
      if (err instanceof OidcSignInError) return refuse(ctx, err.status, err.message);
      throw err;
    }
    const signIn = newOidcSignIn(localPath(ctx.query.next));
    setOidcStateCookie(ctx, sealOidcSignIn(signIn), OIDC_STATE_TTL_MS);
    ctx.redirect(
      authorizationUrl(provider, settings, {
        redirectUri: redirectUriOf(settings),
        state: signIn.state,
        nonce: signIn.nonce,
        codeChallenge: codeChallengeOf(signIn.codeVerifier),
      }),
    );
  });

  router.get(OIDC_CALLBACK_PATH, async (ctx) => {
    if (!settings) return refuse(ctx, 404, "Signing in through an OpenID Connect provider is not set up here.");
    const signIn = openOidcSignIn(ctx.cookies.get(OIDC_STATE_COOKIE));
    // Used or not, the sign-in this cookie held is over: a second callback with it gets nowhere.
    clearOidcStateCookie(ctx);
    const query = (name: string) => (typeof ctx.query[name] === "string" ? (ctx.query[name] as string) : "");
    if (query("error")) {
      const said = [query("error"), query("error_description")].filter(Boolean).join(": ").slice(0, MAX_SHOWN);
      return refuse(ctx, 400, `The sign-in provider did not sign you in (${said}).`);
    }
    if (!signIn)
      return refuse(
        ctx,
        400,
        "This sign-in was not started from this browser, or it took longer than 10 minutes. Start it again.",
      );
    if (!query("state") || query("state") !== signIn.state)
      return refuse(ctx, 400, "This sign-in's state does not match the one this browser started, so it was refused.");
    if (!query("code")) return refuse(ctx, 400, "The sign-in provider sent no sign-in code back.");

    try {
      const provider = await oidcProvider(settings);
      const idToken = await exchangeCode(provider, settings, {
        code: query("code"),
        codeVerifier: signIn.codeVerifier,
        redirectUri: redirectUriOf(settings),
      });
      const identity = await verifyIdToken(provider, settings, idToken, signIn.nonce);
      const account = await accountForIdentity(deps.ds, identity, settings.signUp);
      if ("refused" in account) return refuse(ctx, account.refused.status, account.refused.message);
      await signInAs(ctx, deps, account.userId, config.platform.session.maxAgeSeconds);
    } catch (err) {
      if (err instanceof OidcSignInError) return refuse(ctx, err.status, err.message);
      throw err;
    }
    // A page rather than a redirect: after the hop from the provider's site, a browser would not
    // send the new SameSite=Strict session cookie along a redirect; a refresh from this page it sends.
    renderPage(ctx, 200, "message", {
      title: "Signed in",
      message: "You are signed in.",
      status: 200,
      link: { href: signIn.next, text: "Continue" },
      refreshTo: signIn.next,
    });
  });
  return documentRoutes(router, ...oidcSignInOperations);
}
