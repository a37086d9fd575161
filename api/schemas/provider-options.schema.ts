import Joi from "joi";
import type { ProviderOption } from "../../shared/llm/provider-options";
import { functionNameSchema } from "./function-tool.schema";

/**
 * `response_format`, the structured-output setting, in the shape OpenAI-compatible providers take:
 * a provider refuses any other shape, which would fail the run after it was stored. Only its
 * `schema` is free-form (a JSON schema of the answer, whose keys are the client's names).
 */
const responseFormat = Joi.object({
  type: Joi.string().valid("text", "json_object", "json_schema").required(),
  json_schema: Joi.when("type", {
    is: "json_schema",
    then: Joi.object({
      name: functionNameSchema.required(),
      description: Joi.string().allow(""),
      schema: Joi.object().unknown(true),
      strict: Joi.boolean().allow(null),
    })
      .unknown(false)
      .required(),
    otherwise: Joi.valid(null),
  }),
}).unknown(false);

/** A presence or frequency penalty, in the range OpenAI documents. */
const penalty = Joi.number().min(-2).max(2).allow(null);
/** A probability threshold (`min_p`, `top_a`). */
const share = Joi.number().min(0).max(1).allow(null);
/** A repetition penalty: 1 leaves the text as it is; providers take any positive number. */
const repetitionPenalty = Joi.number().greater(0).allow(null);

/**
 * The rule of every option's value, with the ranges its provider documents: a value outside them
 * would be refused by the provider, failing the run after it was stored and billed. Explicit
 * `unknown(false)` on the keyed objects: the request's `stripUnknown` would otherwise drop a bad
 * key in silence instead of refusing it. Keyed by the catalog (shared/llm/provider-options.ts), so
 * an option added there needs its rule here.
 */
export const providerOptionRules: Record<ProviderOption, Joi.Schema> = {
  temperature: Joi.number().min(0).max(2).allow(null),
  top_p: Joi.number().min(0).max(1).allow(null),
  n: Joi.number().valid(1).allow(null).messages({
    "any.only":
      "{{#label}} must be 1: the service returns one answer per call, so further choices would be paid for and never read",
  }),
  presence_penalty: penalty,
  frequency_penalty: penalty,
  seed: Joi.number().integer().allow(null),
  stop: Joi.alternatives(Joi.string().allow(""), Joi.array().items(Joi.string().allow("")).max(4))
    .allow(null)
    .description("A stop sequence, or up to 4"),
  logit_bias: Joi.object()
    .pattern(/^\d+$/, Joi.number().min(-100).max(100).required())
    .unknown(false)
    .messages({
      "object.unknown": "{{#label}} is not a token id: logit_bias maps token ids (digits) to a bias from -100 to 100",
    })
    .allow(null),
  logprobs: Joi.boolean().allow(null),
  top_logprobs: Joi.number()
    .integer()
    .min(0)
    .max(20)
    .allow(null)
    .when("logprobs", {
      is: Joi.valid(true).required(),
      otherwise: Joi.valid(null).messages({ "any.only": "{{#label}} is taken only with logprobs: true" }),
    }),
  user: Joi.string().allow("", null),
  parallel_tool_calls: Joi.boolean().allow(null),
  reasoning_effort: Joi.string().valid("none", "minimal", "low", "medium", "high", "xhigh").allow(null),
  metadata: Joi.object()
    .pattern(Joi.string().max(64), Joi.string().max(512).allow("").required())
    .max(16)
    .unknown(false)
    .messages({ "object.unknown": "{{#label}} is a metadata key longer than 64 characters" })
    .allow(null)
    .description("Up to 16 string values under keys of at most 64 characters"),
  response_format: responseFormat.allow(null),
  top_k: Joi.number().integer().min(-1).allow(null).description("vLLM, Together, OpenRouter, LM Studio"),
  min_p: share.description("vLLM, Together, OpenRouter"),
  top_a: share.description("OpenRouter"),
  repetition_penalty: repetitionPenalty.description("vLLM, Together, OpenRouter"),
  repeat_penalty: repetitionPenalty.description("LM Studio"),
  safe_prompt: Joi.boolean().allow(null).description("Mistral"),
  sim_latency_ms: Joi.number().min(0).description("The bundled simulator only"),
  sim_error: Joi.number().integer().min(400).max(599).description("The bundled simulator only"),
  sim_error_times: Joi.number().integer().min(0).description("The bundled simulator only"),
  sim_error_model: Joi.string().max(200).description("The bundled simulator only"),
  sim_retry_after_ms: Joi.number().integer().min(0).description("The bundled simulator only"),
  sim_reply: Joi.string().allow("").description("The bundled simulator only"),
  sim_tool_arguments: Joi.object()
    .pattern(Joi.string(), Joi.object().unknown(true))
    .unknown(false)
    .description("The bundled simulator only: tool name → arguments"),
};
