import Joi from "joi";
import type { Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { swarmTypesResponseSchema } from "../../../schemas/meta-response.schema";
import { swarmRequestSchema } from "../../../schemas/swarm-request.schema";
import { swarmBatchResponseSchema, swarmResponseSchema } from "../../../schemas/swarm-response.schema";
import {
  EGRESS_400,
  EXAMPLE_TIMESTAMP,
  MARKETPLACE_400,
  RUN_HEADERS,
  acceptedResponse,
  eventStream,
  publishingResponses,
  runErrorResponses,
} from "../run.openapi";

const researcher = {
  agent_name: "Researcher",
  system_prompt: "You find the key facts and list them.",
  model_name: "gpt-4.1",
  max_tokens: 512,
  temperature: 0.3,
};
const writer = {
  agent_name: "Writer",
  system_prompt: "You write a short brief from the facts you are given.",
  model_name: "gpt-4.1",
  max_tokens: 512,
  temperature: 0.5,
};
const briefRequest = {
  name: "Market brief",
  description: "Research, then write",
  swarm_type: "SequentialWorkflow",
  agents: [researcher, writer],
  task: "Summarise the state of home solar batteries in three bullet points.",
  max_loops: 1,
};

const usage = {
  input_tokens: 812,
  output_tokens: 356,
  total_tokens: 1168,
  billing_info: {
    cost_breakdown: {
      agent_cost: 0.02,
      input_token_cost: 0.005278,
      output_token_cost: 0.006586,
      token_counts: { total_input_tokens: 812, total_output_tokens: 356, total_tokens: 1168 },
      num_agents: 2,
      service_tier: "standard",
      night_time_discount_applied: false,
      img_cost: 0,
      mcp_cost: 0,
    },
    total_cost: 0.031864,
    discount_active: false,
  },
};

const JOB_ID = "0b6f5a8e-1c2d-4e3f-9a8b-7c6d5e4f3a2b";

const streamFrames = [
  `data: {"job_id":"${JOB_ID}","swarm_name":"Market brief","swarm_type":"SequentialWorkflow","number_of_agents":2,"type":"metadata"}`,
  `event: start\ndata: {"timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: agent_start\ndata: {"agent":"Researcher","timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: chunk\ndata: {"agent":"Researcher","content":"Prices fell 20% ","timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: agent_end\ndata: {"agent":"Researcher","timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: usage\ndata: ${JSON.stringify(usage)}`,
  `event: end\ndata: {"job_id":"${JOB_ID}","execution_time":3.42,"status":"success","timestamp":"${EXAMPLE_TIMESTAMP}"}`,
];

/** `POST /v1/swarm/completions`. */
export const swarmCompletionOperation: Operation = {
  method: "post",
  path: "/v1/swarm/completions",
  summary: "Run a swarm",
  description: [
    "Runs the agents under the chosen `swarm_type` and answers with the result once the run ends (up to the wait; see `Prefer`).",
    "One of `task`, `tasks` or `messages` is required. `DebateWithJudge` takes exactly 3 agents: Pro, Con, Judge.",
    "Rules that need the whole request (agent counts, flows naming unknown agents, missing input, unknown models) are 400 with a string `detail`.",
  ].join("\n\n"),
  tags: ["Swarms"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: swarmRequestSchema,
    examples: {
      sequential: { summary: "Two agents in sequence", value: briefRequest },
      debate: {
        summary: "A debate with a judge",
        value: {
          name: "Four-day week",
          swarm_type: "DebateWithJudge",
          agents: [
            { agent_name: "Pro", system_prompt: "Argue for the motion.", model_name: "gpt-4.1" },
            { agent_name: "Con", system_prompt: "Argue against the motion.", model_name: "gpt-4.1" },
            { agent_name: "Judge", system_prompt: "Weigh both sides and give a verdict.", model_name: "gpt-4.1" },
          ],
          task: "Should small companies adopt a four-day week?",
        },
      },
      streaming: { summary: "The same run, streamed", value: { ...briefRequest, stream: true } },
    },
  },
  responses: {
    200: {
      description: "The run succeeded",
      body: swarmResponseSchema,
      examples: {
        sequential: {
          value: {
            job_id: JOB_ID,
            status: "success",
            swarm_name: "Market brief",
            description: "Research, then write",
            swarm_type: "SequentialWorkflow",
            output: [
              { role: "Researcher", content: "1. Prices fell 20% in two years. 2. …" },
              { role: "Writer", content: "- Batteries are cheaper than ever …" },
            ],
            number_of_agents: 2,
            service_tier: "standard",
            execution_time: 3.42,
            usage,
          },
        },
      },
      content: eventStream(
        'With `stream: true`. Frames: a first `data:` frame `{job_id, swarm_name, swarm_type, number_of_agents, type: "metadata"}`; `event: start`; per agent turn `agent_start {agent}`, `chunk {agent, content}`…, `agent_end {agent}`; then `usage` (the usage object) and `end {job_id, execution_time, status}`. A failure is one `event: error {error, timestamp}`.',
        streamFrames,
      ),
    },
    202: acceptedResponse,
    400: apiError(
      `A rule of the whole request is broken (\`INVALID_SWARM\`, unknown model, image refused by the model, ${MARKETPLACE_400}, ${EGRESS_400})`,
    ),
    ...runErrorResponses,
    ...publishingResponses,
  },
};

/** The swarm batch body: an array of SwarmRequest. */
const swarmBatchSchema = Joi.array().items(swarmRequestSchema).min(1);

/** `POST /v1/swarm/batch/completions`. */
export const swarmBatchOperation: Operation = {
  method: "post",
  path: "/v1/swarm/batch/completions",
  summary: "Run many swarms",
  description:
    "Each item is a SwarmRequest, run in parallel. Items are checked one by one: an invalid item does not fail the batch, it is answered in its own slot with `status: error`. The answer keeps request order. At most `MAX_BATCH_SIZE` items (default 100). Each item counts as one request against the rate limits (a batch that does not fit in what is left is refused whole, 429), and the items together may spend no more than one run of the tier may.",
  tags: ["Swarms"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: swarmBatchSchema,
    itemsValidatedOneByOne: true,
    examples: {
      two: {
        summary: "Two swarms",
        value: [
          briefRequest,
          {
            name: "Haiku",
            agents: [{ agent_name: "Poet", model_name: "gpt-4.1", max_tokens: 200 }],
            task: "A haiku about bees.",
          },
        ],
      },
    },
  },
  responses: {
    200: {
      description: "Every item's slot, in request order",
      body: swarmBatchResponseSchema,
      examples: {
        mixed: {
          value: [
            {
              status: "success",
              job_id: JOB_ID,
              swarm_name: "Market brief",
              swarm_type: "SequentialWorkflow",
              result: [{ role: "Writer", content: "- …" }],
              usage,
              execution_time: 3.42,
            },
            { status: "error", swarm_name: "Haiku", detail: "'agents' must be an array" },
          ],
        },
      },
    },
    202: acceptedResponse,
    400: apiError("The batch is empty (`EMPTY_BATCH`) or too large (`BATCH_TOO_LARGE`)"),
    503: runErrorResponses[503],
    504: runErrorResponses[504],
  },
};

/** `GET /v1/swarms/available`. */
export const swarmTypesOperation: Operation = {
  method: "get",
  path: "/v1/swarms/available",
  summary: "The swarm types this deployment runs",
  tags: ["Catalogue"],
  access: "apiKey",
  responses: { 200: { description: "The names usable as `swarm_type`", body: swarmTypesResponseSchema } },
};
