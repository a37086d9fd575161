import Joi from "joi";
import { truncatedField, woundDownFields } from "./run-outcome.schema";
import { dollars, nullableString, runId, tokenCount } from "./response-fields";

/** The hosted API's Usage of a swarm run, with its cost breakdown (docs/api.md, "Request and answer shapes"). */
export const swarmUsageSchema = Joi.object({
  input_tokens: tokenCount.required(),
  output_tokens: tokenCount.required(),
  total_tokens: tokenCount.required(),
  billing_info: Joi.object({
    cost_breakdown: Joi.object({
      agent_cost: dollars.required(),
      input_token_cost: dollars.required(),
      output_token_cost: dollars.required(),
      token_counts: Joi.object({
        total_input_tokens: tokenCount.required(),
        total_output_tokens: tokenCount.required(),
        total_tokens: tokenCount.required(),
      }).required(),
      num_agents: Joi.number().integer().min(0).required(),
      service_tier: Joi.string().valid("standard", "flex").required(),
      night_time_discount_applied: Joi.boolean().required(),
      img_cost: dollars,
      mcp_cost: dollars,
      search_cost: dollars.description(
        "The flat fee of the built-in `auto_search`, once per run, when the run's agents had it (DeepResearchSwarm's researchers on a deployment with a search provider)",
      ),
      scrape_cost: dollars.description("The flat fee of the built-in `web_scraper`, when the run's agents had it"),
    }).required(),
    total_cost: dollars.required(),
    discount_active: Joi.boolean().required(),
  }).required(),
}).id("SwarmUsage");

/** The hosted API's SwarmResponse (`POST /v1/swarm/completions`), plus `service_tier`. */
export const swarmResponseSchema = Joi.object({
  job_id: runId.allow(null).required(),
  status: Joi.string()
    .allow(null)
    .required()
    .description(
      "`success` on a successful run; `incomplete` on one its budget wound down (`budget.on_exceeded: wind_down`), whose `output` is then `[{role: <agent>, content}]` of what finished",
    ),
  swarm_name: nullableString.required().description("The request's `name`"),
  description: nullableString.required().description("The request's `description`"),
  swarm_type: Joi.string().allow(null).required(),
  output: Joi.any()
    .required()
    .description(
      "Usually `[{role: <agent name>, content}]` in turn order; with `tasks`, one `{task, output}` per task. Per-type shapes: docs/swarm-types.md (Output shapes)",
    ),
  number_of_agents: Joi.number().integer().min(0).allow(null).required(),
  service_tier: Joi.string().valid("standard", "flex").required(),
  execution_time: Joi.number().min(0).allow(null).required().description("Seconds"),
  usage: swarmUsageSchema.allow(null).required(),
  ...woundDownFields,
  ...truncatedField,
}).id("SwarmResponse");

/** One swarm batch slot of a swarm that ran and succeeded. */
const swarmBatchSuccessSchema = Joi.object({
  status: Joi.valid("success").required(),
  job_id: runId.required(),
  swarm_name: nullableString.required(),
  swarm_type: Joi.string().required(),
  result: Joi.any().required().description("The swarm's `output`"),
  usage: swarmUsageSchema.allow(null).required(),
  execution_time: Joi.number().min(0).allow(null).required(),
}).id("SwarmBatchSuccess");

/** One swarm batch slot of an item refused (no `job_id`) or of a run that failed. */
const swarmBatchErrorSchema = Joi.object({
  status: Joi.valid("error").required(),
  swarm_name: nullableString.required(),
  detail: Joi.string().required(),
  job_id: runId,
}).id("SwarmBatchError");

/** `POST /v1/swarm/batch/completions` response: one slot per request item, in request order. */
export const swarmBatchResponseSchema = Joi.array()
  .items(Joi.alternatives(swarmBatchSuccessSchema, swarmBatchErrorSchema))
  .id("SwarmBatchResponse");
