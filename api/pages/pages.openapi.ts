import Joi from "joi";
import type { Operation, ResponseSpec } from "../openapi/operation";

/** An HTML answer of a page route. */
export const html = (description: string): ResponseSpec => ({
  description,
  content: { "text/html": { schema: { type: "string" } } },
});
const byId = Joi.object({ id: Joi.string().description("The listing's UUID") });

/** A server-rendered page: public (a signed-in user is recognised by the session cookie). */
export function page(
  method: "get" | "post",
  path: string,
  summary: string,
  responses: Record<number, ResponseSpec>,
  pathParams?: Joi.ObjectSchema,
): Operation {
  return { method, path, summary, tags: ["Pages"], access: "public", ...(pathParams ? { pathParams } : {}), responses };
}

export const listingPageOperations: Operation[] = [
  page(
    "get",
    "/prompt/{id}",
    "A marketplace prompt's listing page",
    {
      200: html("The listing (paid text only for its owner; pending or rejected only for its owner, with the review)"),
      301: { description: "An agent listing's former address: to its `/agent/{id}` page" },
      404: html("No such prompt"),
    },
    byId,
  ),
  page(
    "get",
    "/agent/{id}",
    "An agent listing's page (made by a token launch, or listed with `POST /api/add-agent`)",
    { 200: html("The listing"), 404: html("No such listing") },
    byId,
  ),
];

export const signInOperations: Operation[] = [
  page(
    "get",
    "/platform/sign-in",
    "The sign-in page; with `?token=` (the identity backend's link) it names the token's account and asks to confirm (it never signs in by itself)",
    { 200: html("The sign-in page"), 401: html("The token is not valid") },
  ),
  page(
    "post",
    "/platform/sign-in",
    "Sign in with an account's `email` and `password`, or a session token (`token`); form fields `next` and `_csrf`, the form token bound to the pre-session cookie",
    {
      200: html("Signed in with a session token"),
      303: { description: "Signed in with email and password: on to `next` (a path on this site)" },
      400: html("No email or password"),
      401: html("A wrong email or password (one answer for both), or a token that is not valid"),
      403: html("Sent from another site, or a missing or wrong form token: the sign-in page again"),
      429: html("Too many sign-in attempts for this email or from this address (`Retry-After`)"),
    },
  ),
  page("post", "/platform/sign-out", "Sign out, ending an Apiary session (form with the CSRF token)", {
    200: html("Signed out"),
    401: html("Not signed in"),
    403: html("Sent from another site, or a missing or wrong CSRF token"),
  }),
];

export const oidcSignInOperations: Operation[] = [
  page("get", "/platform/sign-in/oidc", "Sign in through the OpenID Connect provider (`?next=` a path on this site)", {
    302: { description: "To the provider's authorization endpoint (PKCE, `state`, `nonce`; the state cookie set)" },
    404: html("No provider is configured"),
    502: html("The provider's discovery document could not be had or is wrong"),
  }),
  page(
    "get",
    "/platform/sign-in/oidc/callback",
    "Where the provider sends the browser back (`code` and `state`, or `error`): the redirect URL registered there",
    {
      200: html("Signed in: a page that moves on to `next`"),
      400: html("The provider's error, a missing or mismatched state, an expired sign-in, or a refused code"),
      401: html("The ID token does not verify (signature, issuer, audience, expiry or nonce)"),
      403: html("No account, and sign-up through the provider is off (or it shared no email)"),
      404: html("No provider is configured"),
      409: html("An account has the email, but the provider does not confirm it (`email_verified`)"),
      502: html("The provider could not be reached, answered wrongly, or refused the client's credentials"),
    },
  ),
];

export const apiKeysPageOperations: Operation[] = [
  page("get", "/platform/api-keys", "The signed-in user's API keys", {
    200: html("The keys, and a new key once right after creating it"),
    401: html("Not signed in"),
  }),
  page("post", "/platform/api-keys", "Create an API key (form with the CSRF token)", {
    201: html("With a session in `Authorization`: the keys page showing the new key once"),
    303: { description: "With the session cookie: to the keys page, which shows the new key once" },
    400: html("No usable key name"),
    401: html("Not signed in"),
    403: html("Sent from another site, or a missing or wrong CSRF token"),
    409: html("The account already has `MAX_KEYS_PER_ACCOUNT` active keys: the keys page saying so"),
  }),
  page(
    "post",
    "/platform/api-keys/{id}/revoke",
    "Revoke one of the user's API keys (form with the CSRF token)",
    {
      200: html("With a session in `Authorization`: the keys page"),
      303: { description: "With the session cookie: back to the keys page" },
      401: html("Not signed in"),
      403: html("Sent from another site, or a missing or wrong CSRF token"),
      404: html("No such key of this user"),
    },
    Joi.object({ id: Joi.string().description("The key's id") }),
  ),
];

export const signUpOperations: Operation[] = [
  page(
    "get",
    "/platform/sign-up",
    "The sign-up form (`?invite=` carries an invite link's token when sign-up is by invite)",
    {
      200: html("The form"),
      403: html("Sign-up is closed, or by invite and the invite is missing, used or expired"),
    },
  ),
  page("post", "/platform/sign-up", "Make an account (form fields `email`, `password`, `invite`, `next`, `_csrf`)", {
    303: { description: "The account is made and signed in: on to `next`" },
    400: html("An unusable email or password: the form again saying why"),
    403: html("Sign-up closed, a missing or used invite, another site, or a wrong form token"),
    409: html("An account with this email exists"),
    429: html("Too many attempts from this address (`Retry-After`)"),
  }),
];

export const accountPageOperations: Operation[] = [
  page("get", "/platform/account", "The signed-in account: email, role, password change, sign-out", {
    200: html("The account page"),
    401: html("Not signed in: the sign-in page"),
  }),
  page(
    "post",
    "/platform/account/password",
    "Change the password (fields `current`, `password`, `_csrf`); ends every other session",
    {
      200: html("Changed"),
      400: html("The new password is not acceptable"),
      401: html("Not signed in, or the current password is wrong"),
      403: html("Sent from another site, a wrong CSRF token, or a session of the identity backend"),
      429: html("Too many attempts (`Retry-After`)"),
    },
  ),
  page("post", "/platform/account/invites", "Make a one-use invite link (admins; field `_csrf`)", {
    201: html("The account page showing the new link once"),
    401: html("Not signed in"),
    403: html("Not an admin, sent from another site, or a wrong CSRF token"),
  }),
];

export const runPagesOperations: Operation[] = [
  page("get", "/platform/runs", "The signed-in user's runs, newest first (`?status=`, `?kind=`, `?cursor=`)", {
    200: html("A page of runs, with the link to the next"),
    400: html("An unknown state or kind, or a cursor of another query"),
    401: html("Not signed in"),
  }),
  page(
    "get",
    "/platform/runs/{id}",
    "One of the signed-in user's runs: its steps, answer or error, and a batch's items; reloads itself while it runs",
    { 200: html("The run"), 401: html("Not signed in"), 404: html("No run of this user with that id") },
    Joi.object({ id: Joi.string().description("The run's `job_id`") }),
  ),
];

export const spendPageOperations: Operation[] = [
  page("get", "/platform/spend", "The signed-in user's spend by day, key and model (`?start=&end=`, UTC days)", {
    200: html("The spend over the window (the last 30 days by default)"),
    400: html("A window it cannot show: not a real day, reversed, after today or over 90 days"),
    401: html("Not signed in"),
  }),
];
