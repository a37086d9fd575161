import type { Operation } from "../../../openapi/operation";
import { platformError } from "../../../openapi/shared-parts";
import {
  addAgentResponseSchema,
  editAgentResponseSchema,
  queryAgentsResponseSchema,
} from "../../../schemas/agent-listing-response.schema";
import { addAgentSchema, editAgentSchema } from "../../../schemas/agent-listing-fields.schema";
import { QUERY_PROMPTS_BODY_KB, queryPromptsSchema } from "../../../schemas/query-prompts.schema";

const contentRefused = platformError(
  "`Content validation failed`: unsafe content, or a paid agent of a seller without enough trust (`trustworthiness`)",
);
const priceDown = platformError("`Price unavailable`, or content scoring unavailable; nothing stored");

/** Agent listing creation, editing and query, described from the schemas the routes validate with. */
export const agentOperations: Operation[] = [
  {
    method: "post",
    path: "/api/add-agent",
    summary: "List an agent on the marketplace",
    description:
      "Created as a prompt is (`POST /api/add-prompt`): the same duplicate rule (among the caller's agents), daily limits, content validation, trust, price and review.",
    tags: ["Agents"],
    access: "platform",
    request: {
      body: addAgentSchema,
      examples: {
        free: {
          summary: "A free agent",
          value: {
            name: "Changelog writer",
            agent: "You write changelogs from lists of merged changes, grouped by area, in plain words.",
            description: "Turns merged changes into a changelog",
            useCases: [{ title: "Weekly", description: "Summarise the week" }],
            tags: "writing,release",
            language: "python",
            requirements: [{ package: "swarms", installation: "pip install swarms" }],
            agent_config: { agent_name: "changelog", model_name: "gpt-4o-mini", max_loops: 1 },
          },
        },
      },
    },
    responses: {
      200: { description: "Created, waiting for review (or approved by its score)", body: addAgentResponseSchema },
      400: platformError("`Validation error` (every problem in `errors`), a duplicate (`existingId`), or low quality"),
      403: contentRefused,
      429: platformError("`Daily limit exceeded`, with `currentUsage`, `limits` and `resetTime`"),
      503: priceDown,
    },
  },
  {
    method: "post",
    path: "/api/edit-agent",
    summary: "Update one's own agent: `id` and any field of `POST /api/add-agent`",
    tags: ["Agents"],
    access: "platform",
    request: { body: editAgentSchema },
    responses: {
      200: { description: "Updated; `updated_data` is the stored record", body: editAgentResponseSchema },
      400: platformError("`Validation error`, a duplicate (`existingId`), or low quality"),
      403: contentRefused,
      404: platformError("No agent of the caller with that id (`AGENT_NOT_FOUND`)"),
      503: priceDown,
    },
  },
  {
    method: "post",
    path: "/api/query-agents",
    summary: "Search agents",
    description: `The filters, visibility and paging of \`POST /api/query-prompts\`, over agent listings. The body is at most ${QUERY_PROMPTS_BODY_KB} KB (413 above it).`,
    tags: ["Agents"],
    access: "platformOptional",
    request: {
      body: queryPromptsSchema,
      examples: { newest: { summary: "Newest paid agents", value: { priceFilter: "paid", limit: 10 } } },
    },
    responses: { 200: { description: "Agent records", body: queryAgentsResponseSchema } },
  },
];
