import Joi from "joi";
import { dollars, tokenCount } from "./response-fields";

/** A range: `max` null when nothing in the request bounds it. */
const span = (item: Joi.NumberSchema, what: string) =>
  Joi.object({ min: item.required(), max: item.allow(null).required() }).description(what);

/** One agent's part of a swarm estimate. */
const agentEstimateSchema = Joi.object({
  agent_name: Joi.string().required(),
  job: Joi.string()
    .allow(null)
    .required()
    .description("The job of an internal agent (or of the request agent holding it): `Director`, `Consensus`…"),
  model: Joi.string().required(),
  calls: span(tokenCount, "LLM calls").required(),
  input_tokens: span(tokenCount, "Prompt tokens over all its calls").required(),
  output_tokens: span(tokenCount, "Output tokens over all its calls").required(),
  cost: span(dollars, "US dollars: its tokens at the price table and its per-agent charge").required(),
}).id("SwarmAgentEstimate");

/** `POST /v1/swarm/estimate`'s answer. */
export const swarmEstimateResponseSchema = Joi.object({
  swarm_type: Joi.string().required().description("The type that would run (`auto` spans the types it may choose)"),
  runs: Joi.number()
    .integer()
    .min(1)
    .required()
    .description("Runs of the swarm: one per `tasks` item without a `task`"),
  exact_calls: Joi.boolean().required().description("Whether the request fixes every agent's number of calls"),
  agents: Joi.array().items(agentEstimateSchema).required(),
  charges: Joi.array()
    .items(Joi.object({ kind: Joi.valid("image", "search").required(), cost: dollars.required() }))
    .required()
    .description("The run's charges that are no agent's"),
  totals: Joi.object({
    calls: span(tokenCount, "LLM calls").required(),
    input_tokens: span(tokenCount, "Prompt tokens").required(),
    output_tokens: span(tokenCount, "Output tokens").required(),
    cost: span(dollars, "US dollars: the bill falls in this range").required(),
  }).required(),
  why: Joi.array().items(Joi.string()).required().description("Why the ranges are ranges, one sentence each"),
}).id("SwarmEstimate");
