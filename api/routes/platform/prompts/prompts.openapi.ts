import Joi from "joi";
import type { Operation } from "../../../openapi/operation";
import { platformError } from "../../../openapi/shared-parts";
import {
  addPromptResponseSchema,
  editPromptResponseSchema,
  queryPromptsResponseSchema,
  ratePromptResponseSchema,
} from "../../../schemas/prompt-response.schema";
import { addPromptSchema } from "../../../schemas/add-prompt.schema";
import { editPromptSchema } from "../../../schemas/edit-prompt.schema";
import { QUERY_PROMPTS_BODY_KB, queryPromptsSchema } from "../../../schemas/query-prompts.schema";
import { ratePromptSchema } from "../../../schemas/rate-prompt.schema";

const dailyLimit = platformError("`Daily limit exceeded`, with `currentUsage`, `limits` and `resetTime`");
const priceDown = platformError(
  "`Price unavailable` (no price younger than `PRICE_MAX_AGE_MS`), or content scoring unavailable; nothing stored",
);
const contentRefused = platformError(
  "`Content validation failed`: unsafe content, or paid content of a seller without enough trust (`trustworthiness`)",
);
const launchTrouble = platformError(
  "`Tokenization failed`: the token's launch could not be carried out (`TOKENIZATION_UNAVAILABLE`) or was still being confirmed when the wait ended " +
    "(`LAUNCH_PENDING`, with `id` and `listing_url`); or the cluster could not be asked for the wallet's balance (`CHAIN_UNAVAILABLE`)",
);

/** Prompt creation, editing, query and rating, described from the schemas the routes validate with. */
export const promptOperations: Operation[] = [
  {
    method: "post",
    path: "/api/add-prompt",
    summary: "Create a prompt",
    tags: ["Prompts"],
    access: "platform",
    request: {
      body: addPromptSchema,
      examples: {
        free: {
          summary: "A free prompt",
          value: {
            name: "Release notes",
            prompt: "Write release notes from this list of merged changes, grouped by area.",
            useCases: [{ title: "Weekly", description: "Summarise the week" }],
            tags: "writing,release",
          },
        },
      },
    },
    responses: {
      200: { description: "Created (with `tokenized_on`: and its token launched)", body: addPromptResponseSchema },
      400: platformError(
        "`Validation error` (every problem in `errors`; with `tokenized_on` also a key that does not belong to `creator_wallet`, or metadata over the launcher's limits), " +
          "a duplicate (`existingId`), low quality (`contentQuality`), `Insufficient SOL balance` (`required_sol`, `current_balance_sol`; nothing stored), " +
          "or `Tokenization failed` (the network refused or failed the launch; the prompt is not kept and its daily count is given back)",
      ),
      403: contentRefused,
      429: dailyLimit,
      500: launchTrouble,
      503: priceDown,
    },
  },
  {
    method: "post",
    path: "/api/edit-prompt",
    summary: "Update one's own prompt: `id` and any field of `POST /api/add-prompt`",
    tags: ["Prompts"],
    access: "platform",
    request: { body: editPromptSchema },
    responses: {
      200: { description: "Updated; `updated_data` is the stored record", body: editPromptResponseSchema },
      400: platformError(
        "`Validation error` (also: turning off or renaming a launched token), a duplicate (`existingId`), low quality, " +
          "`Insufficient SOL balance`, or `Tokenization failed` (turning `tokenized_on` on: the token is launched first, and on failure nothing of the edit is written)",
      ),
      403: contentRefused,
      404: platformError("No prompt of the caller with that id"),
      409: platformError(
        "The prompt's token is still being launched (`PROMPT_LAUNCHING`), or already launched or being launched (`PROMPT_LAUNCH_EXISTS`)",
      ),
      500: launchTrouble,
      503: priceDown,
    },
  },
  {
    method: "post",
    path: "/api/query-prompts",
    summary: "Search prompts",
    description: `Approved prompts to anyone; with credentials, also the caller's own prompts in any status (\`pending\` while they wait for review, \`rejected\`); a moderator sees every prompt, and paid prompts' text. The body is at most ${QUERY_PROMPTS_BODY_KB} KB (413 above it).`,
    tags: ["Prompts"],
    access: "platformOptional",
    request: {
      body: queryPromptsSchema,
      examples: {
        popular: { summary: "Popular free prompts", value: { priceFilter: "free", sortBy: "popular", limit: 6 } },
      },
    },
    responses: { 200: { description: "Prompt records", body: queryPromptsResponseSchema } },
  },
  {
    method: "post",
    path: "/api/rate-prompt",
    summary: "Rate another user's prompt (1–5; a second rating replaces the first)",
    tags: ["Prompts"],
    access: "platform",
    request: { body: ratePromptSchema },
    responses: {
      200: { description: "The rating and the prompt's new figures", body: ratePromptResponseSchema },
      403: platformError("One's own prompt"),
      404: platformError("No such prompt among those the caller sees: only approved prompts can be rated"),
    },
  },
];

/** `GET /uploads/{key}`: stored images. */
export const uploadOperations: Operation[] = [
  {
    method: "get",
    path: "/uploads/{key}",
    summary: "An image kept in the local storage directory",
    tags: ["Images"],
    access: "public",
    pathParams: Joi.object({ key: Joi.string().description("Content hash and extension, as the storage gave it") }),
    responses: {
      200: {
        description: "The image",
        content: {
          "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
          "image/jpeg": {},
          "image/webp": {},
          "image/gif": {},
        },
      },
      404: platformError("No such image"),
    },
  },
];

/** `GET /images/{key}`: stored images, served by the platform whatever the storage. */
export const imageOperations: Operation[] = [
  {
    method: "get",
    path: "/images/{key}",
    summary: "A listing's image as the platform stored it (the only image source its pages use)",
    tags: ["Images"],
    access: "public",
    pathParams: Joi.object({ key: Joi.string().description("Content hash and extension, as the storage gave it") }),
    responses: {
      200: {
        description: "The image",
        content: {
          "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
          "image/jpeg": {},
          "image/webp": {},
          "image/gif": {},
        },
      },
      404: platformError("No such image"),
    },
  },
];
