import Joi from "joi";
import { REASONING_TYPES } from "../../shared/contracts/reasoning-request";
import { REASONING_TYPE_NAMES } from "../../shared/reasoning/reasoning-catalog";
import { nullableString, runId, timestamp } from "./response-fields";
import { swarmUsageSchema } from "./swarm-response.schema";

/** `POST /v1/reasoning-agent/completions`: the hosted fields and the swarm response's names for them. */
export const reasoningResponseSchema = Joi.object({
  id: runId.required().description("The same as `job_id`"),
  job_id: runId.required(),
  status: Joi.valid("success").required(),
  success: Joi.valid(true).required(),
  name: Joi.string().required().description("The request's `agent_name`"),
  agent_name: Joi.string().required(),
  description: nullableString.required(),
  swarm_type: Joi.valid(...REASONING_TYPES)
    .required()
    .description("The type that ran (an alias's canonical name)"),
  agent_type: Joi.valid(...REASONING_TYPE_NAMES)
    .required()
    .description("The `swarm_type` as the client sent it"),
  output: Joi.any().required().description("The run's turns in the request's `output_type`"),
  outputs: Joi.any().required().description("The same as `output` (the hosted API's name)"),
  number_of_agents: Joi.number().integer().min(0).required(),
  execution_time: Joi.number().min(0).allow(null).required().description("Seconds"),
  usage: swarmUsageSchema.allow(null).required(),
  timestamp: timestamp.required().description("When the run finished"),
}).id("ReasoningAgentResponse");

/** `GET /v1/reasoning-agent/types`. */
export const reasoningTypesResponseSchema = Joi.object({
  status: Joi.valid("success").required(),
  agent_types: Joi.array()
    .items(Joi.valid(...REASONING_TYPE_NAMES))
    .required()
    .description("Every name `swarm_type` accepts"),
  types: Joi.object()
    .pattern(
      Joi.string(),
      Joi.object({
        description: Joi.string().required(),
        runs_as: Joi.valid(...REASONING_TYPES).required(),
        aliases: Joi.array().items(Joi.string()).required(),
        fields: Joi.array().items(Joi.string()).required(),
      }),
    )
    .required()
    .description("Each name: what it does, the type it runs as, and the fields that shape it"),
}).id("ReasoningAgentTypes");
