import Joi from "joi";
import { imageSchema } from "./image.schema";
import { llmArgsSchema, providerOptionMessages, refuseUnlistedOption } from "./llm-args.schema";
import { providerOptionRules } from "./provider-options.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** Most messages in one conversation, as in `history`. */
const MAX_MESSAGES = 1_000;
/** Most images one run takes (`imgs`), counted over every message. */
export const MAX_CHAT_IMAGES = 20;

const imageUrl = Joi.object({
  url: imageSchema.required().description("An https URL or a `data:` URI"),
  detail: Joi.string().valid("auto", "low", "high"),
}).unknown(true);

/** A content part: text or an image; other kinds (audio, files) are refused, as nothing here reads them. */
const contentPart = Joi.object({
  type: Joi.string()
    .valid("text", "image_url")
    .required()
    .messages({ "any.only": "{{#label}} must be 'text' or 'image_url' (audio and file parts are not taken)" }),
  text: Joi.when("type", { is: "text", then: Joi.string().max(1_000_000).allow("").required() }),
  image_url: Joi.when("type", { is: "image_url", then: imageUrl.required() }),
}).unknown(true);

const content = Joi.alternatives(Joi.string().max(1_000_000).allow(""), Joi.array().items(contentPart).min(1).max(100));

/**
 * One message. `developer` is OpenAI's newer name for `system` and is read as one; `tool` and
 * `function` messages answer tool calls this endpoint never makes, so they are refused.
 */
const message = Joi.object({
  role: Joi.string().valid("system", "developer", "user", "assistant").required().messages({
    "any.only":
      "{{#label}} must be one of 'system', 'developer', 'user' or 'assistant' (tool calls are not supported on this endpoint)",
  }),
  content: Joi.when("role", {
    is: "assistant",
    then: content.allow(null),
    otherwise: content.required(),
  }),
  name: Joi.string().max(200),
}).unknown(true);

/**
 * OpenAI's fields this endpoint takes and does not act on (storage, the tier, tool settings without
 * tools, caching and safety ids): accepted, as OpenAI clients send them, and never passed to the model.
 */
const IGNORED_FIELDS = [
  "store",
  "metadata",
  "service_tier",
  "parallel_tool_calls",
  "tool_choice",
  "function_call",
  "web_search_options",
  "verbosity",
  "prompt_cache_key",
  "safety_identifier",
];

/** The fields this endpoint reads itself, provider options among them (`temperature`, `n`, `logprobs`…). */
const ownFields = {
  model: nonBlankString().max(200).required().description("The model the agent calls (`GET /v1/models` lists them)"),
  messages: Joi.array()
    .items(message)
    .min(1)
    .max(MAX_MESSAGES)
    .required()
    .description("The conversation; its last message must be the user's"),
  temperature: llmArgsSchema.extract("temperature").description("0–2; default 0.5"),
  max_tokens: Joi.number().integer().min(1).max(1_000_000).allow(null).description("Default 8192"),
  max_completion_tokens: Joi.number().integer().min(1).max(1_000_000).allow(null).description("Wins over `max_tokens`"),
  top_p: llmArgsSchema.extract("top_p"),
  presence_penalty: llmArgsSchema.extract("presence_penalty"),
  frequency_penalty: llmArgsSchema.extract("frequency_penalty"),
  seed: llmArgsSchema.extract("seed"),
  stop: llmArgsSchema.extract("stop"),
  logit_bias: llmArgsSchema.extract("logit_bias"),
  reasoning_effort: llmArgsSchema.extract("reasoning_effort"),
  response_format: llmArgsSchema.extract("response_format"),
  user: Joi.string().max(256).allow("", null),
  n: Joi.number()
    .integer()
    .valid(1)
    .allow(null)
    .messages({ "any.only": "{{#label}} must be 1: one completion per request (send separate requests for more)" }),
  stream: Joi.boolean().allow(null),
  stream_options: Joi.object({ include_usage: Joi.boolean().allow(null) })
    .unknown(true)
    .allow(null)
    .description("`include_usage`: a last chunk with empty `choices` and the `usage`"),
  max_loops: Joi.number()
    .integer()
    .min(1)
    .max(100)
    .allow(null)
    .description("Swarms extension: how many times the agent reviews its own answer (default 1)"),
  tools: Joi.array().length(0).allow(null).messages({
    "array.length":
      "{{#label}} is not supported on this endpoint: tool calls are never returned here; use POST /v1/agent/completions with agent_config.tools_list_dictionary",
  }),
  functions: Joi.array().length(0).allow(null).messages({
    "array.length": "{{#label}} is not supported on this endpoint: function calls are never returned here",
  }),
  logprobs: Joi.valid(false, null).messages({
    "any.only": "{{#label}} is not supported on this endpoint: answers carry no log probabilities",
  }),
  top_logprobs: Joi.valid(0, null).messages({
    "any.only": "{{#label}} is not supported on this endpoint: answers carry no log probabilities",
  }),
  audio: Joi.valid(null).messages({ "any.only": "{{#label}} is not supported on this endpoint: answers are text" }),
  modalities: Joi.array()
    .items(Joi.valid("text").messages({ "any.only": "{{#label}} must be 'text': answers are text only" }))
    .allow(null),
  prediction: Joi.valid(null).messages({ "any.only": "{{#label}} is not supported on this endpoint" }),
};

/** Provider options this endpoint reads itself: the agent's temperature, and answers it gives one way only. */
const READ_HERE = ["temperature", "n", "logprobs", "top_logprobs"];

/**
 * The body fields passed to the model as they are (`llm_args`): every provider option on the
 * allow-list (shared/llm/provider-options.ts) this endpoint neither reads itself nor ignores.
 */
export const PASSED_CHAT_OPTIONS = Object.keys(providerOptionRules).filter(
  (option) => !IGNORED_FIELDS.includes(option) && !READ_HERE.includes(option),
);

/**
 * `POST /v1/chat/completions` (OpenAI's ChatCompletionRequest, plus the Swarms `max_loops`).
 * Provider options reuse the `llm_args` rules and allow-list for the model. Options whose answer
 * this endpoint cannot give (tool calls, log probabilities, audio, several choices) are refused,
 * so a client never waits for them; OpenAI's fields it does not act on are ignored; any other
 * field is refused naming it, as OpenAI refuses an unrecognized argument.
 */
export const chatCompletionSchema = Joi.object({
  ...webhookUrlField,
  ...ownFields,
  ...Object.fromEntries(
    Object.entries(providerOptionRules).filter(
      ([option]) => !(option in ownFields) && !IGNORED_FIELDS.includes(option),
    ),
  ),
  ...Object.fromEntries(IGNORED_FIELDS.map((field) => [field, Joi.any()])),
})
  .unknown(false)
  .custom((value: { model: string }, helpers) => refuseUnlistedOption(value, helpers, value.model))
  .messages({
    "object.unknown":
      "{{#label}} is not a field of this endpoint: it takes OpenAI's chat fields and the provider options the model's provider documents, never where a call goes, its keys, headers, proxies or a mocked answer",
    ...providerOptionMessages,
  })
  .id("ChatCompletionRequest");
