import type { Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { reasoningRequestSchema } from "../../../schemas/reasoning-request.schema";
import { reasoningResponseSchema, reasoningTypesResponseSchema } from "../../../schemas/reasoning-response.schema";
import { EXAMPLE_TIMESTAMP, RUN_HEADERS, acceptedResponse, runErrorResponses } from "../run.openapi";

const JOB_ID = "3f2a8c1e-5b7d-4e9f-8a6c-1d2e3f4a5b6c";

const consistencyRequest = {
  agent_name: "Consistent Reasoner",
  model_name: "gpt-4.1",
  system_prompt: "You are a careful reasoner. End with one line: Answer: <answer>.",
  swarm_type: "self-consistency",
  num_samples: 3,
  task: "A bat and a ball cost $1.10 together; the bat costs $1.00 more than the ball. What does the ball cost?",
};

const usage = {
  input_tokens: 620,
  output_tokens: 410,
  total_tokens: 1030,
  billing_info: {
    cost_breakdown: {
      agent_cost: 0.02,
      input_token_cost: 0.004025,
      output_token_cost: 0.007585,
      token_counts: { total_input_tokens: 620, total_output_tokens: 410, total_tokens: 1030 },
      num_agents: 2,
      service_tier: "standard",
      night_time_discount_applied: false,
      img_cost: 0,
      mcp_cost: 0,
    },
    total_cost: 0.03161,
    discount_active: false,
  },
};

const output = [
  { role: "Consistent Reasoner", content: "… Answer: $0.05" },
  { role: "Consistent Reasoner", content: "… Answer: $0.05" },
  { role: "Consistent Reasoner", content: "… Answer: $0.10" },
  { role: "Consistent Reasoner-aggregator", content: "Two of three answers agree, and their algebra holds: $0.05." },
];

/** `POST /v1/reasoning-agent/completions`. */
export const reasoningCompletionOperation: Operation = {
  method: "post",
  path: "/v1/reasoning-agent/completions",
  summary: "Run a reasoning agent",
  description: [
    "Runs the `swarm_type` reasoning type on `task` and answers with its result once the run ends (up to the wait; see `Prefer`). What each type calls, in which order and what runs in parallel: docs/reasoning-agents.md.",
    "`reasoning-agent` runs `reasoning-duo`, `consistency-agent` runs `self-consistency`, `ire-agent` runs `ire`: `swarm_type` names the type that ran, `agent_type` the name sent.",
    "`output` (and `outputs`, the same) shows the run's turns in `output_type`; the default `dict-all-except-first` lists every turn after the task as `{role, content}`, the answer last.",
  ].join("\n\n"),
  tags: ["Reasoning agents"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: reasoningRequestSchema,
    examples: {
      selfConsistency: { summary: "Three samples in parallel, then a majority vote", value: consistencyRequest },
      duo: {
        summary: "Reason, then answer",
        value: { swarm_type: "reasoning-duo", task: "Is 221 a prime number?", output_type: "final" },
      },
    },
  },
  responses: {
    200: {
      description: "The run succeeded",
      body: reasoningResponseSchema,
      examples: {
        selfConsistency: {
          value: {
            id: JOB_ID,
            job_id: JOB_ID,
            status: "success",
            success: true,
            name: "Consistent Reasoner",
            agent_name: "Consistent Reasoner",
            description: null,
            swarm_type: "self-consistency",
            agent_type: "self-consistency",
            output,
            outputs: output,
            number_of_agents: 2,
            execution_time: 2.71,
            usage,
            timestamp: EXAMPLE_TIMESTAMP,
          },
        },
      },
    },
    202: acceptedResponse,
    400: apiError("`model_name` names a model this deployment cannot serve"),
    ...runErrorResponses,
  },
};

/** `GET /v1/reasoning-agent/types`. */
export const reasoningTypesOperation: Operation = {
  method: "get",
  path: "/v1/reasoning-agent/types",
  summary: "The reasoning agent types",
  description:
    "`agent_types` lists every name `swarm_type` accepts, as the hosted API does; `types` says, per name, what it does, the type it runs as and the request fields that shape it.",
  tags: ["Reasoning agents"],
  access: "apiKey",
  responses: { 200: { description: "The reasoning types", body: reasoningTypesResponseSchema } },
};
