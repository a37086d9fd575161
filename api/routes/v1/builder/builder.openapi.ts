import { EXECUTION_TYPES } from "../../../../shared/contracts/auto-swarm-builder";
import type { Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import {
  agentGenerateResponseSchema,
  autoSwarmBuilderResponseSchema,
  executionTypesResponseSchema,
} from "../../../schemas/builder-response.schema";
import { agentGenerateSchema, autoSwarmBuilderSchema } from "../../../schemas/builder-request.schema";
import { EXAMPLE_TIMESTAMP, RUN_HEADERS, acceptedResponse, runErrorResponses } from "../run.openapi";

const JOB_ID = "5b4a3f2e-1d0c-4b9a-8f7e-6d5c4b3a2f1e";
const usage = {
  input_tokens: 412,
  output_tokens: 230,
  total_tokens: 642,
  billing_info: {
    cost_breakdown: {
      agent_cost: 0.01,
      input_token_cost: 0.000824,
      output_token_cost: 0.00184,
      token_counts: { total_input_tokens: 412, total_output_tokens: 230, total_tokens: 642 },
      num_agents: 1,
      service_tier: "standard",
      night_time_discount_applied: false,
      img_cost: 0,
      mcp_cost: 0,
    },
    total_cost: 0.012664,
    discount_active: false,
  },
};
const researcher = {
  agent_name: "Researcher",
  description: "Finds the facts",
  system_prompt: "You research the question and list the facts with sources.",
  model_name: "gpt-4.1",
  auto_generate_prompt: false,
  max_tokens: 8000,
  role: "worker",
  max_loops: 1,
};
const writer = { ...researcher, agent_name: "Writer", description: "Writes the report", system_prompt: "You write." };
const FAILS_500 =
  "The run failed (`DECISION_INVALID`, with `job_id` and `agent: Builder`): the Builder's design stayed invalid after its repair call, and the message lists what was wrong";

/** `POST /v1/auto-swarm-builder/completions`. */
export const autoSwarmBuilderOperation: Operation = {
  method: "post",
  path: "/v1/auto-swarm-builder/completions",
  summary: "Design a swarm for a task",
  description:
    "A Builder designs a swarm for `task` (name, description, type, 2–8 agents, flow and rules) through one structured decision; the design is validated (shape, unique names, a concrete swarm type, the type's request rules) and repaired once when invalid. `execution_type` says what `outputs` holds; `return-swarm-router-config` is a body `POST /v1/swarm/completions` runs as it stands.",
  tags: ["Builder"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: autoSwarmBuilderSchema,
    examples: {
      agents: { summary: "The agents", value: { task: "Write a market report on beeswax candles." } },
      config: {
        summary: "A swarm to run",
        value: {
          name: "Candle report",
          task: "Write a market report on beeswax candles.",
          execution_type: "return-swarm-router-config",
        },
      },
    },
  },
  responses: {
    200: {
      description: "The design, as `execution_type` asks",
      body: autoSwarmBuilderResponseSchema,
      examples: {
        agents: {
          value: {
            success: true,
            job_id: JOB_ID,
            outputs: { agents: [researcher, writer] },
            type: "return-agents",
            timestamp: EXAMPLE_TIMESTAMP,
            usage,
          },
        },
      },
    },
    202: acceptedResponse,
    400: apiError("`model_name` cannot be served (`UNKNOWN_MODEL`, `PROVIDER_NOT_CONFIGURED`)"),
    ...runErrorResponses,
    500: apiError(FAILS_500),
  },
};

/** `GET /v1/auto-swarm-builder/execution-types`. */
export const executionTypesOperation: Operation = {
  method: "get",
  path: "/v1/auto-swarm-builder/execution-types",
  summary: "What the auto swarm builder can return",
  tags: ["Builder"],
  access: "apiKey",
  responses: {
    200: {
      description: "The values of `execution_type`",
      body: executionTypesResponseSchema,
      examples: { all: { value: [...EXECUTION_TYPES] } },
    },
  },
};

/** `POST /v1/agents/auto-generate`. */
export const agentGenerateOperation: Operation = {
  method: "post",
  path: "/v1/agents/auto-generate",
  summary: "Design one agent for a task",
  description:
    "A Builder writes one agent for `task` (name, description, system prompt, temperature) through one structured decision, validated and repaired once like the auto swarm builder's. `agent_config` is a body's `agent_config` for `POST /v1/agent/completions` as it stands.",
  tags: ["Builder"],
  access: "apiKey",
  headers: RUN_HEADERS,
  request: {
    body: agentGenerateSchema,
    examples: { task: { summary: "A task", value: { task: "Review supplier contracts for hidden fees." } } },
  },
  responses: {
    200: {
      description: "The generated agent",
      body: agentGenerateResponseSchema,
      examples: {
        agent: {
          value: {
            success: true,
            job_id: JOB_ID,
            agent_config: { ...researcher, max_tokens: 8192, temperature: 0.2 },
            timestamp: EXAMPLE_TIMESTAMP,
            usage,
          },
        },
      },
    },
    202: acceptedResponse,
    400: apiError("`model_name` cannot be served (`UNKNOWN_MODEL`, `PROVIDER_NOT_CONFIGURED`)"),
    ...runErrorResponses,
    500: apiError(FAILS_500),
  },
};
