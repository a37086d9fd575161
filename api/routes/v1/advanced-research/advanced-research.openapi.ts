import type { Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import {
  advancedResearchBatchResponseSchema,
  advancedResearchBatchSchema,
  advancedResearchResponseSchema,
  advancedResearchSchema,
} from "../../../schemas/advanced-research.schema";
import { EGRESS_400, EXAMPLE_TIMESTAMP, RUN_HEADERS, acceptedResponse, runErrorResponses } from "../run.openapi";

const session = {
  config: { name: "Beeswax market", director_model_name: "gpt-4.1", worker_model_name: "gpt-4.1-mini", max_loops: 1 },
  task: "What are the main commercial uses of beeswax, and which is growing fastest?",
};
const answer = {
  id: "3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a",
  name: "Beeswax market",
  description: null,
  outputs: [
    {
      role: "Director-Agent",
      content: "Research plan:\n- beeswax commercial uses\n- beeswax market growth by segment",
    },
    { role: "Research-Worker-1", content: "Cosmetics, candles and food coatings (https://example.org/uses)." },
    { role: "Research-Worker-2", content: "Cosmetics grow fastest (https://example.org/market)." },
    { role: "Director-Agent", content: "Beeswax is used mainly in cosmetics, candles and food coatings; cosmetics…" },
  ],
  sources: 8,
  characters_per_source: 2000,
  timestamp: EXAMPLE_TIMESTAMP,
  usage: {
    input_tokens: 5120,
    output_tokens: 1480,
    total_tokens: 6600,
    searches: 2,
    search_cost: 0.08,
    agent_cost: 0.03,
    total_cost: 0.17066,
  },
};
const RESEARCH_400 = `no search provider configured (\`TOOL_NOT_AVAILABLE\`); a model that cannot be served; ${EGRESS_400}`;

/** `POST /v1/advanced-research/completions`. */
export const advancedResearchOperation: Operation = {
  method: "post",
  path: "/v1/advanced-research/completions",
  summary: "Run an advanced research session",
  description:
    "A director plans web searches for `task`, one researcher per search reads its results (all in parallel), and the director writes the report from their findings; `config.max_loops` rounds, each planning from the last report. Needs the web search `GET /v1/tools/available` lists as `auto_search`. Answers once the run ends (up to the wait; see `Prefer`); never streamed.",
  tags: ["Research"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: { body: advancedResearchSchema, examples: { session: { summary: "One session", value: session } } },
  responses: {
    200: {
      description: "The session ended",
      body: advancedResearchResponseSchema,
      examples: { session: { value: answer } },
    },
    202: acceptedResponse,
    400: apiError(`A rule of the request is broken (${RESEARCH_400})`),
    ...runErrorResponses,
  },
};

/** `POST /v1/advanced-research/batch/completions`. */
export const advancedResearchBatchOperation: Operation = {
  method: "post",
  path: "/v1/advanced-research/batch/completions",
  summary: "Run many advanced research sessions",
  description:
    "Each of `input_schemas` runs as its own session (as `POST /v1/advanced-research/completions`), in parallel; the answer lists their answers in request order. A session that fails keeps its slot with null `outputs` and `sources` and its `error`. At most `MAX_BATCH_SIZE` items; each counts as one request against the rate limits.",
  tags: ["Research"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: advancedResearchBatchSchema,
    examples: {
      two: { summary: "Two sessions", value: { input_schemas: [session, { ...session, task: "Who buys beeswax?" }] } },
    },
  },
  responses: {
    200: {
      description: "Every session's answer, in request order",
      body: advancedResearchBatchResponseSchema,
      examples: { one: { value: [answer] } },
    },
    202: acceptedResponse,
    400: apiError(`A rule of an item is broken (${RESEARCH_400}), or the batch is empty or too large`),
    ...runErrorResponses,
  },
};
