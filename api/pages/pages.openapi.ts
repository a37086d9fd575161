import Joi from "joi";
import type { Operation, ResponseSpec } from "../openapi/operation";

const html = (description: string): ResponseSpec => ({
  description,
  content: { "text/html": { schema: { type: "string" } } },
});
const byId = Joi.object({ id: Joi.string().description("The listing's UUID") });

/** A server-rendered page: public (a signed-in user is recognised by the session cookie). */
function page(
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
    { 200: html("The listing (paid text only for its owner)"), 404: html("No such prompt") },
    byId,
  ),
  page(
    "get",
    "/agent/{id}",
    "An agent listing's page (made by a token launch)",
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
    "Sign in by posting a session token (form fields `token` and `_csrf`, the form token bound to the pre-session cookie)",
    {
      200: html("Signed in"),
      401: html("The token is not valid"),
      403: html("Sent from another site, or a missing or wrong form token: the sign-in page again"),
    },
  ),
  page("post", "/platform/sign-out", "Sign out (form with the CSRF token)", {
    200: html("Signed out"),
    401: html("Not signed in"),
    403: html("Sent from another site, or a missing or wrong CSRF token"),
  }),
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
