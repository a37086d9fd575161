import Joi from "joi";
import { EXECUTION_TYPES } from "../../shared/contracts/auto-swarm-builder";
import { runId, timestamp } from "./response-fields";
import { swarmUsageSchema } from "./swarm-response.schema";

/** A generated agent in the reference's AgentSpec fields: a valid `agent_config` as it stands. */
const generatedAgentSchema = Joi.object({
  agent_name: Joi.string().required(),
  description: Joi.string().allow("").required(),
  system_prompt: Joi.string().required(),
  model_name: Joi.string().required(),
  auto_generate_prompt: Joi.boolean(),
  max_tokens: Joi.number().integer().min(1),
  temperature: Joi.number(),
  role: Joi.string(),
  max_loops: Joi.number().integer().min(1),
}).id("GeneratedAgent");

/** The SDK's AutoSwarmBuilderCreateCompletionResponse. */
export const autoSwarmBuilderResponseSchema = Joi.object({
  success: Joi.boolean().required(),
  job_id: runId.required(),
  outputs: Joi.object()
    .unknown(true)
    .required()
    .description(
      "By `type`: `return-agents` `{agents}`; `return-swarm-router-config` a `POST /v1/swarm/completions` body `{name, description, swarm_type, agents, rearrange_flow?, rules?, task, max_loops}`; `return-agents-objects` `{agent_objects}` (every field the service runs each agent with, plus `metadata`)",
    ),
  type: Joi.string()
    .valid(...EXECUTION_TYPES)
    .required()
    .description("The request's `execution_type`"),
  timestamp: timestamp.required(),
  usage: swarmUsageSchema.required(),
}).id("AutoSwarmBuilderResponse");

export const executionTypesResponseSchema = Joi.array()
  .items(Joi.string().valid(...EXECUTION_TYPES))
  .id("AutoSwarmBuilderExecutionTypes");

/** `POST /v1/agents/auto-generate`'s answer. */
export const agentGenerateResponseSchema = Joi.object({
  success: Joi.boolean().required(),
  job_id: runId.required(),
  agent_config: generatedAgentSchema.required(),
  timestamp: timestamp.required(),
  usage: swarmUsageSchema.required(),
}).id("AgentGenerateResponse");
