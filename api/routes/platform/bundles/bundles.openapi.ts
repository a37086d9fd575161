import type { Operation } from "../../../openapi/operation";
import { platformError } from "../../../openapi/shared-parts";
import {
  editBundleResponseSchema,
  publishBundleResponseSchema,
  queryBundlesResponseSchema,
} from "../../../schemas/bundle-response.schema";
import { editBundleSchema, publishBundleSchema } from "../../../schemas/bundle-fields.schema";
import { QUERY_PROMPTS_BODY_KB, queryPromptsSchema } from "../../../schemas/query-prompts.schema";

const contentRefused = platformError(
  "`Content validation failed`: unsafe content, or a paid bundle of a seller without enough trust (`trustworthiness`)",
);
const priceDown = platformError("`Price unavailable`, or content scoring unavailable; nothing stored");
const badRequest = platformError(
  "`Validation error` (every problem in `errors`; an id in `items` that is none of the caller's prompts or agents is one), a duplicate (`existingId`), or low quality",
);

/** Bundle publishing, editing and query, described from the schemas the routes validate with. */
export const bundleOperations: Operation[] = [
  {
    method: "post",
    path: "/api/v1/publish/bundle",
    summary: "List a bundle of one's own prompts and agents on the marketplace",
    description:
      "Created as a prompt is (`POST /api/add-prompt`): the same duplicate rule (the same members as another of the caller's bundles), daily limits, content validation, trust, price and review. Buyers see a bundle once it and every member are approved.",
    tags: ["Bundles"],
    access: "platform",
    request: {
      body: publishBundleSchema,
      examples: {
        free: {
          summary: "A free bundle of a prompt and an agent",
          // The members must be the caller's own listings: these ids stand for them.
          "x-placeholder": true,
          value: {
            name: "Release kit",
            items: ["6f1c2a4e-2b7d-4c55-9a3e-0d8a51c7e901", "a2d94b10-5e3f-4f0a-8c6b-7e1f2d3c4b5a"],
            description: "Everything to ship release notes: the changelog agent and the announcement prompt",
            useCases: [{ title: "Release day", description: "From merged changes to the announcement" }],
            tags: "writing,release",
          },
        },
      },
    },
    responses: {
      200: { description: "Created, waiting for review (or approved by its score)", body: publishBundleResponseSchema },
      400: badRequest,
      403: contentRefused,
      429: platformError("`Daily limit exceeded`, with `currentUsage`, `limits` and `resetTime`"),
      503: priceDown,
    },
  },
  {
    method: "post",
    path: "/api/edit-bundle",
    summary: "Update one's own bundle: `id` and any field of `POST /api/v1/publish/bundle`",
    tags: ["Bundles"],
    access: "platform",
    request: { body: editBundleSchema },
    responses: {
      200: { description: "Updated; `updated_data` is the stored record", body: editBundleResponseSchema },
      400: badRequest,
      403: contentRefused,
      404: platformError("No bundle of the caller with that id (`BUNDLE_NOT_FOUND`)"),
      503: priceDown,
    },
  },
  {
    method: "post",
    path: "/api/query-bundles",
    summary: "Search bundles",
    description: `The filters, visibility and paging of \`POST /api/query-prompts\`, over bundles, each with its members; others see a bundle only while every member is approved. The body is at most ${QUERY_PROMPTS_BODY_KB} KB (413 above it).`,
    tags: ["Bundles"],
    access: "platformOptional",
    request: {
      body: queryPromptsSchema,
      examples: { newest: { summary: "Newest free bundles", value: { priceFilter: "free", limit: 10 } } },
    },
    responses: { 200: { description: "Bundle records", body: queryBundlesResponseSchema } },
  },
];
