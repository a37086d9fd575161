import Joi from "joi";
import { config } from "../../shared/config";
import { budgetSchema } from "./budget.schema";
import { imageSchema } from "./image.schema";
import { nullableString, timestamp } from "./response-fields";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** A whole number in a range; null is the default, as the SDK types every field `| null`. */
const whole = (min: number, max: number, fallback: number) =>
  Joi.number().integer().min(min).max(max).allow(null).empty(null).default(fallback);
const model = nonBlankString().max(200).allow(null).empty(null).default(config.llm.defaultModel);

/** The SDK's `config` of an advanced research session; null or absent is every default. */
const researchConfigSchema = Joi.object({
  name: Joi.string().max(200).allow(null).default(null).description("The session's name, echoed in the answer"),
  description: Joi.string().max(2000).allow(null).default(null),
  director_agent_name: nonBlankString().max(100).allow(null).empty(null).default("Director-Agent"),
  director_model_name: model.description("The model that plans the searches and writes the report"),
  director_max_tokens: whole(1, 200_000, 8_000).description("Output cap of each director call"),
  director_max_loops: whole(1, 10, 1).description("The director's turns when it writes a round's report"),
  worker_model_name: model.description("The model of the researchers that read the search results"),
  max_loops: whole(1, 5, 1).description("Research rounds (plan, parallel searches, report)"),
  exa_search_num_results: whole(1, 20, config.builtinTools.search.numResults).description(
    "Results per search (`numResults`)",
  ),
  exa_search_max_characters: whole(100, 50_000, config.builtinTools.search.maxCharacters).description(
    "Text characters per result (`contents.text.maxCharacters`)",
  ),
})
  // Fields this service does not know are ignored, as in the rest of the body.
  .unknown(true)
  .allow(null)
  .empty(null)
  .default()
  .id("AdvancedResearchConfig");

const researchFields = {
  ...webhookUrlField,
  config: researchConfigSchema,
  task: nonBlankString().max(1_000_000).required().description("What to research"),
  img: imageSchema.allow(null, "").description("An image the director sees with the task"),
  budget: budgetSchema,
};

/** `POST /v1/advanced-research/completions`. */
export const advancedResearchSchema = Joi.object(researchFields).unknown(true).id("AdvancedResearchRequest");

/** `POST /v1/advanced-research/batch/completions` (its size is a rule checked by the service: 400, not 422). */
export const advancedResearchBatchSchema = Joi.object({
  ...webhookUrlField,
  input_schemas: Joi.array()
    .items(Joi.object(researchFields).unknown(true).id("AdvancedResearchItem"))
    .required()
    .description("The sessions to run, each its own run, all in parallel"),
})
  .unknown(true)
  .id("AdvancedResearchBatchRequest");

/** One session's answer (the SDK's AdvancedResearchCreateCompletionResponse). */
export const advancedResearchResponseSchema = Joi.object({
  id: Joi.string().uuid().required().description("The run's id (`GET /v1/jobs/{job_id}` reads it again)"),
  name: nullableString.required(),
  description: nullableString.required(),
  outputs: Joi.array()
    .items(Joi.object({ role: Joi.string().required(), content: Joi.string().allow("").required() }))
    .required()
    .description(
      "The session's messages in order: each round's plan, researchers' findings and report; the final report last",
    ),
  sources: Joi.number().integer().min(0).required().description("Distinct source URLs the searches returned"),
  characters_per_source: Joi.number().integer().min(0).required(),
  timestamp: timestamp.required(),
  usage: Joi.object({
    input_tokens: Joi.number().integer().min(0).required(),
    output_tokens: Joi.number().integer().min(0).required(),
    total_tokens: Joi.number().integer().min(0).required(),
    searches: Joi.number()
      .integer()
      .min(0)
      .required()
      .description("Searches the provider answered: each is billed (a failed search is not)"),
    search_cost: Joi.number().min(0).required().description("`PRICE_PER_SEARCH` for each of `searches`"),
    agent_cost: Joi.number().min(0).required(),
    total_cost: Joi.number().min(0).required(),
  })
    .required()
    .id("AdvancedResearchUsage"),
}).id("AdvancedResearchResponse");

/** A batch item that failed while running, in its slot: the same fields, null where it has nothing. */
const failedResearchItemSchema = advancedResearchResponseSchema
  .keys({
    outputs: Joi.valid(null).required(),
    sources: Joi.valid(null).required(),
    usage: Joi.object().unknown(true).allow(null).required().description("What it spent until it failed"),
    error: Joi.object({ message: Joi.string().required(), code: Joi.string().required() }).unknown(true).required(),
  })
  .id("AdvancedResearchFailedItem");

/** The batch's answer: one session's answer per item, in request order. */
export const advancedResearchBatchResponseSchema = Joi.array()
  .items(Joi.alternatives(advancedResearchResponseSchema, failedResearchItemSchema))
  .id("AdvancedResearchBatchResponse");
