import type { Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { agentBatchResponseSchema, agentCompletionResponseSchema } from "../../../schemas/agent-response.schema";
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
import { agentBatchSchema, agentCompletionSchema } from "../../../schemas/agent-request.schema";

const researcher = {
  agent_name: "Researcher",
  description: "Finds facts",
  system_prompt: "You are concise.",
  model_name: "gpt-4.1",
  max_tokens: 300,
  temperature: 0.3,
};
const JOB_ID = "3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a";
const usage = {
  input_tokens: 42,
  output_tokens: 61,
  total_tokens: 103,
  img_cost: 0,
  mcp_cost: 0,
  total_cost: 0.011402,
};
const completion = {
  job_id: JOB_ID,
  success: true,
  name: "Researcher",
  description: "Finds facts",
  temperature: 0.3,
  outputs: [{ role: "Researcher", content: "Candles, wood polish and lip balm." }],
  usage,
  timestamp: EXAMPLE_TIMESTAMP,
};

const streamFrames = [
  `data: {"job_id":"${JOB_ID}","success":true,"name":"Researcher","description":"Finds facts","temperature":0.3,"timestamp":"${EXAMPLE_TIMESTAMP}","stream":true,"type":"metadata"}`,
  `event: start\ndata: {"timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: chunk\ndata: {"content":"Candles, ","timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: chunk\ndata: {"content":"wood polish and lip balm.","timestamp":"${EXAMPLE_TIMESTAMP}"}`,
  `event: usage\ndata: ${JSON.stringify(usage)}`,
  `event: end\ndata: {"job_id":"${JOB_ID}","usage":${JSON.stringify(usage)},"timestamp":"${EXAMPLE_TIMESTAMP}","complete":true}`,
  `event: done\ndata: {"timestamp":"${EXAMPLE_TIMESTAMP}"}`,
];

/** `POST /v1/agent/completions`. */
export const agentCompletionOperation: Operation = {
  method: "post",
  path: "/v1/agent/completions",
  summary: "Run one agent",
  description:
    "Runs `agent_config` on `task` (with optional history and images) and answers with its output once the run ends (up to the wait; see `Prefer`).",
  tags: ["Agents"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: agentCompletionSchema,
    examples: {
      simple: { summary: "One question", value: { agent_config: researcher, task: "Name three uses of beeswax." } },
      streaming: {
        summary: "The same, streamed",
        value: { agent_config: { ...researcher, streaming_on: true }, task: "Name three uses of beeswax." },
      },
    },
  },
  responses: {
    200: {
      description: "The run succeeded",
      body: agentCompletionResponseSchema,
      examples: { simple: { value: completion } },
      content: eventStream(
        'With `agent_config.streaming_on: true` (or `stream: true`). Frames: a first `data:` frame `{job_id, success, name, description, temperature, timestamp, stream: true, type: "metadata"}`; `event: start`; `event: chunk {content, timestamp}`…; `event: usage` (the usage object); `event: end {job_id, usage, timestamp, complete: true}`; `event: done`. A failure is one `event: error {error, timestamp}`.',
        streamFrames,
      ),
    },
    202: acceptedResponse,
    400: apiError(
      `A rule of the request is broken (a model that cannot be served, handoffs' included; image refused by the model; ${MARKETPLACE_400}; ${EGRESS_400})`,
    ),
    ...runErrorResponses,
    ...publishingResponses,
  },
};

/** `POST /v1/agent/batch/completions`. */
export const agentBatchOperation: Operation = {
  method: "post",
  path: "/v1/agent/batch/completions",
  summary: "Run many agents",
  description:
    "Each item runs as its own agent, in parallel. `results` keeps request order; an item that fails takes its slot as `{success: false, error, code, index, job_id}` and never fails the batch. At most `MAX_BATCH_SIZE` items (default 100). Each item counts as one request against the rate limits (a batch that does not fit in what is left is refused whole, 429), and the items together may spend no more than one run of the tier may.",
  tags: ["Agents"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: agentBatchSchema,
    examples: {
      two: {
        summary: "Two agents",
        value: [
          { agent_config: researcher, task: "Name three uses of beeswax." },
          { agent_config: { agent_name: "Poet", model_name: "gpt-4.1", max_tokens: 200 }, task: "A haiku about bees." },
        ],
      },
    },
  },
  responses: {
    200: {
      description: "Every item's result, in request order",
      body: agentBatchResponseSchema,
      examples: {
        mixed: {
          value: {
            batch_id: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
            total_requests: 2,
            results: [
              completion,
              {
                success: false,
                error: "The model refused the request",
                code: "LLM_CALL_FAILED",
                index: 1,
                job_id: "7c6b5a4f-3e2d-4c1b-9a0f-8e7d6c5b4a3f",
              },
            ],
            execution_time: 2.17,
            timestamp: EXAMPLE_TIMESTAMP,
          },
        },
      },
    },
    202: acceptedResponse,
    400: apiError(
      `The batch is empty (\`EMPTY_BATCH\`) or too large (\`BATCH_TOO_LARGE\`), or in an item: a model that cannot be served, the item's handoffs' included (\`UNKNOWN_MODEL\`, \`PROVIDER_NOT_CONFIGURED\`), ${MARKETPLACE_400}, ${EGRESS_400}`,
    ),
    ...publishingResponses,
    504: runErrorResponses[504],
  },
};
