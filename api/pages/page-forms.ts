import type { Context, Middleware } from "koa";
import compose from "koa-compose";
import { koaBody } from "koa-body";
import { byteCount, readBody, rethrowBodyParseError } from "../http/body";
import { PRE_SESSION_COOKIE, rotatePreSession } from "./cookies";
import { isValidCsrfToken, isValidSignInCsrfToken } from "./csrf-tokens";
import { viewerOf } from "./page-session";
import { renderMessage } from "./render";
import { sameOriginOnly } from "./same-origin";
import { renderSignIn } from "./sign-in-page";

/** Forms are small: a name, a session token, a form token. */
const FORM_LIMIT = "32kb";

const parseForm = koaBody({
  urlencoded: true,
  formLimit: FORM_LIMIT,
  json: false,
  text: false,
  multipart: false,
  onError: rethrowBodyParseError,
});

/** A form body, read as every body is (`readBody`): a client that trickles it is cut off too. */
const formBody: Middleware = async (ctx, next) => {
  await readBody(ctx, parseForm, { maxBytes: byteCount(FORM_LIMIT) });
  await next();
};

export function formField(ctx: Context, name: string): string {
  const value = (ctx.request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : "";
}

/**
 * What every state-changing form of a signed-in user goes through: a request from this site's own
 * pages (else 403), a signed-in viewer (else the 401 sign-in page, answered before any of the body
 * is read), the form body, and, for cookie sessions, the form token derived from the session (else
 * 403). The SameSite=Strict cookie already
 * keeps other sites' forms from carrying the session; the token also stops same-site pages that
 * are not ours. A session sent in the `Authorization` header needs no token: browsers never add
 * that header on their own.
 */
export function signedInForm(returnTo: string): Middleware {
  return compose([
    sameOriginOnly(),
    async (ctx, next) => {
      if (!viewerOf(ctx)) return renderSignIn(ctx, 401, { next: returnTo });
      await next();
    },
    formBody,
    async (ctx, next) => {
      const viewer = viewerOf(ctx)!;
      if (viewer.via === "cookie" && !isValidCsrfToken(viewer.token, formField(ctx, "_csrf"))) {
        return renderMessage(
          ctx,
          403,
          "Form refused",
          "This form did not come from this site or has expired. Reload the page and try again.",
        );
      }
      await next();
    },
  ]);
}

/**
 * The sign-in form: from this site's own pages (else 403), with the form token bound to the
 * browser's pre-session cookie (else the sign-in page again, 403, with a fresh one), so another
 * site can neither post it nor make the browser sign in to an account of its choosing. Every post
 * uses its pre-session up (`firstUse` remembers it, so it is refused if posted again): the next
 * sign-in form gets a new one.
 */
export function signInForm(firstUse: (preSession: string) => Promise<boolean>): Middleware {
  return compose([
    sameOriginOnly(),
    formBody,
    async (ctx, next) => {
      const preSession = ctx.cookies.get(PRE_SESSION_COOKIE) ?? "";
      const valid = isValidSignInCsrfToken(preSession, formField(ctx, "_csrf")) && (await firstUse(preSession));
      rotatePreSession(ctx);
      if (!valid) {
        return renderSignIn(ctx, 403, {
          next: formField(ctx, "next"),
          error: "This sign-in form did not come from this site or has expired. Sign in again from this page.",
        });
      }
      await next();
    },
  ]);
}
