import Joi from "joi";
import { dollars, nullableString, runId, timestamp, tokenCount } from "./response-fields";
import { truncatedField, woundDownFields } from "./run-outcome.schema";

/** The agent completion's usage (docs/api.md, "Request and answer shapes"). */
const agentUsageSchema = Joi.object({
  input_tokens: tokenCount.required(),
  output_tokens: tokenCount.required(),
  total_tokens: tokenCount.required(),
  img_cost: dollars.required(),
  mcp_cost: dollars.required(),
  search_cost: dollars.description("The flat fee of `auto_search`, when `tools_enabled` attached it"),
  scrape_cost: dollars.description("The flat fee of `web_scraper`, when `tools_enabled` attached it"),
  total_cost: dollars.required(),
}).id("AgentUsage");

/** The agent completion response (docs/api.md, "Request and answer shapes"). */
export const agentCompletionResponseSchema = Joi.object({
  job_id: runId.required(),
  success: Joi.boolean()
    .required()
    .description("True; false only for a run its budget wound down (`status: incomplete`)"),
  status: Joi.valid("incomplete").description(
    "Only on a run its budget wound down (`budget.on_exceeded: wind_down`): `outputs` holds what finished",
  ),
  name: nullableString.required().description("`agent_config.agent_name`"),
  description: nullableString.required(),
  temperature: Joi.number()
    .allow(null)
    .required()
    .description("The agent's temperature setting (0.5 when it gave none), the one its first call sends"),
  outputs: Joi.array()
    .items(Joi.object({ role: Joi.string().required().description("The agent's name"), content: Joi.any().required() }))
    .required()
    .description("The agent's answer (the last turn's answer when `max_loops` > 1)"),
  usage: agentUsageSchema.required(),
  timestamp: timestamp.required(),
  ...woundDownFields,
  ...truncatedField,
}).id("AgentCompletionResponse");

/** An agent batch item that failed, in its slot. */
const agentBatchItemErrorSchema = Joi.object({
  success: Joi.valid(false).required(),
  error: Joi.string().required(),
  code: Joi.string().required(),
  index: Joi.number().integer().min(0).required().description("The item's position in the request"),
  job_id: runId.required(),
}).id("AgentBatchItemError");

/** The hosted API's BatchAgentResponse (`POST /v1/agent/batch/completions`); results in request order, a failed item never fails the batch. */
export const agentBatchResponseSchema = Joi.object({
  batch_id: runId.allow(null).required(),
  total_requests: Joi.number().integer().min(0).allow(null).required(),
  results: Joi.array().items(Joi.alternatives(agentCompletionResponseSchema, agentBatchItemErrorSchema)).required(),
  execution_time: Joi.number()
    .min(0)
    .allow(null)
    .required()
    .description("Seconds from queueing to the last item's end"),
  timestamp: timestamp.allow(null).required(),
}).id("AgentBatchResponse");
