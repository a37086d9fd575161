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
  page("get", "/platform/moderation", "The moderators' review queue: listings waiting for review, oldest first", {
    200: html("The queue"),
    401: html("Not signed in: the sign-in page"),
    403: html("Not a moderator"),
  }),
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
