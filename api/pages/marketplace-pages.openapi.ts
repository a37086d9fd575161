import Joi from "joi";
import type { Operation } from "../openapi/operation";
import { marketplaceQuerySchema } from "./marketplace-query";
import { html, page } from "./pages.openapi";

const byId = Joi.object({ id: Joi.string().description("The listing's UUID") });

export const homePageOperations: Operation[] = [
  {
    ...page("get", "/", "The marketplace: browse and search approved prompts and agents", {
      200: html("A page of listings, with links to the previous and next pages"),
      400: html("A parameter is unknown, repeated or out of bounds: the page names each problem"),
    }),
    query: marketplaceQuerySchema,
  },
];

export const moderationPageOperations: Operation[] = [
  {
    ...page("get", "/platform/moderation", "The moderators' review queue: listings waiting for review, oldest first", {
      200: html("The queue"),
      400: html("A search longer than 100 characters, given twice, or holding a NUL"),
      401: html("Not signed in: the sign-in page"),
      403: html("Not a moderator"),
    }),
    query: Joi.object({
      q: Joi.string().allow("").max(100).description("Words in the name or description of the listings to show"),
    }),
  },
  page(
    "post",
    "/platform/moderation/{id}",
    "Approve or reject a listing (form fields `decision` approve or reject, `reason`, required to reject, `updated_at` of the version reviewed, `_csrf`), as `POST /api/moderate-prompt` does",
    {
      200: html("With a session in `Authorization`: the queue, saying what was decided"),
      303: { description: "With the session cookie: back to the queue, which says what was decided" },
      400: html("No decision, a rejection without a reason, or a field out of bounds: the queue saying so"),
      401: html("Not signed in"),
      403: html("Not a moderator, the moderator's own listing, or a form from another site or without its token"),
      404: html("No such listing"),
      409: html("The listing changed after the page was loaded: the queue with its new version"),
    },
    byId,
  ),
];

export const minePageOperations: Operation[] = [
  page("get", "/platform/mine", "The signed-in person's prompts and agents, in every review status", {
    200: html("The listings, each with its status, the moderator's reason and an edit link"),
    401: html("Not signed in: the sign-in page"),
  }),
  page("get", "/platform/mine/new", "The new-prompt form", { 200: html("The form"), 401: html("Not signed in") }),
  page(
    "post",
    "/platform/mine/new",
    "Create a prompt (form fields `name`, `description`, `text`, `use_cases`, `tags`, `category`, `free`, `price_usd`, `_csrf`) as `POST /api/add-prompt` does",
    {
      200: html("With a session in `Authorization`: the listings, saying it was created"),
      303: { description: "With the session cookie: to the listings, which say it was created" },
      400: html("A field breaks its rule, a duplicate, or the content fails validation: the form again, saying why"),
      401: html("Not signed in"),
      403: html("Sent from another site, a missing or wrong CSRF token, or content refused as unsafe"),
      429: html("A daily limit is reached: the form again, saying so"),
    },
  ),
  page(
    "get",
    "/platform/mine/{id}/edit",
    "The edit form of one of the signed-in person's listings",
    { 200: html("The form"), 401: html("Not signed in"), 404: html("No such listing of theirs") },
    byId,
  ),
  page(
    "post",
    "/platform/mine/{id}/edit",
    "Save an edit (form fields `name`, `description`, `text`, `use_cases`, `tags`, `category`, `free`, `price_usd`, `_csrf`) as `POST /api/edit-prompt` or `/api/edit-agent` does",
    {
      200: html("With a session in `Authorization`: the listings, saying it was saved"),
      303: { description: "With the session cookie: to the listings, which say it was saved" },
      400: html("A field breaks its rule, or the content fails validation: the form again, saying why"),
      401: html("Not signed in"),
      403: html("Sent from another site, a missing or wrong CSRF token, or content refused as unsafe"),
      404: html("No such listing of theirs"),
      429: html("A daily limit is reached: the form again, saying so"),
    },
    byId,
  ),
];
