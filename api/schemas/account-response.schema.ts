import Joi from "joi";
import { agentSpecSchema } from "./agent-spec.schema";
import { timestamp } from "./response-fields";

const count = Joi.number().integer().min(0).required();

/** `GET /v1/agents/list`. */
export const agentListResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  count: count.description("Distinct agent configurations the account has run, all of them (not only this page)"),
  limit: Joi.number().integer().min(1).required().description("The most `agents` this answer could hold"),
  has_more: Joi.boolean().required().description("Whether `count` is more than `agents` holds"),
  agents: Joi.array()
    .items(agentSpecSchema)
    .required()
    .description(
      "Each configuration as it was sent (with the service's defaults), most recently used first; secrets read `[redacted]`, and an agent whose prompt comes from the marketplace has no `system_prompt`",
    ),
  timestamp: timestamp.required(),
}).id("AgentList");

/** `GET /v1/metrics/summary`. */
export const metricsSummaryResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  unique_agents: count.description("Distinct agent configurations run (what `GET /v1/agents/list` counts)"),
  total_completion_calls: count.description("Completion calls ever (a batch counts its items)"),
  successful_completions: count.description("Those that succeeded"),
  completions_last_24h: count.description("Completion calls queued in the last 24 hours"),
  completions_last_7d: count.description("Completion calls queued in the last 7 days"),
  total_tokens: count.description("Tokens of every call the account's runs made (cut-off calls included)"),
  total_cost: Joi.number()
    .required()
    .description(
      "US dollars the account's runs were billed in all: the billing ledger `GET /v1/usage` sums, so the two agree over the same runs",
    ),
  timestamp: timestamp.required(),
}).id("MetricsSummary");
