import Joi from "joi";
import {
  MCP_TOOL_DESCRIPTION_MAX_CHARS,
  TOOL_ARGUMENTS_MAX_CHARS,
  TOOL_CALLS_MAX_PER_ANSWER,
} from "../../shared/limits/outside-content";
import { functionNameSchema } from "./function-tool.schema";
import { imageSchema } from "./image.schema";
import { llmArgsSchema, providerOptionMessages, refuseUnlistedOption } from "./llm-args.schema";
import { providerOptionRules } from "./provider-options.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** Most messages in one conversation, as in `history`. */
const MAX_MESSAGES = 1_000;
/** Most images one run takes (`imgs`), counted over every message. */
export const MAX_CHAT_IMAGES = 20;
/** Most answers one request asks for (`n`): each is billed, and the budget holds all of them. */
const MAX_CHOICES = 8;
/** The longest description a tool may have (MCP tools' bound). */
const MAX_TOOL_DESCRIPTION = MCP_TOOL_DESCRIPTION_MAX_CHARS;

const imageUrl = Joi.object({
  url: imageSchema.required().description("An https URL or a `data:` URI"),
  detail: Joi.string().valid("auto", "low", "high"),
}).unknown(false);

/** Most text of one content, as in `history`. */
const MAX_TEXT = 1_000_000;
/** A tool call's id as the model gave it, or a client names it in a `tool` message. */
const toolCallId = Joi.string().min(1).max(256);

/**
 * Content parts take OpenAI's keys only, as the rest of the body does: a key beside them (a
 * gateway's `cache_control`, a `file`, an `image_url` on a text part) would reach the model unchecked.
 */
const textPart = Joi.object({
  type: Joi.valid("text").required(),
  text: Joi.string().max(MAX_TEXT).allow("").required(),
}).unknown(false);

/** A user message's part: text or an image; other kinds (audio, files) are refused, as nothing here reads them. */
const userPart = Joi.object({
  type: Joi.string()
    .valid("text", "image_url")
    .required()
    .messages({ "any.only": "{{#label}} must be 'text' or 'image_url' (audio and file parts are not taken)" }),
  text: Joi.when("type", {
    is: "text",
    then: Joi.string().max(MAX_TEXT).allow("").required(),
    otherwise: Joi.forbidden(),
  }),
  image_url: Joi.when("type", { is: "image_url", then: imageUrl.required(), otherwise: Joi.forbidden() }),
}).unknown(false);

/** Text, or text parts (images only in a user message, as OpenAI takes them). */
/** Text or parts; an array's own problems are told (a plain alternative would say only "does not match"). */
const textOrParts = (part: Joi.Schema) =>
  Joi.alternatives().conditional(Joi.array(), {
    then: Joi.array().items(part).min(1).max(100),
    otherwise: Joi.string().max(MAX_TEXT).allow(""),
  });
const textContent = textOrParts(textPart);
const userContent = textOrParts(userPart);

/** A tool call an earlier assistant turn made, as the client sends it back with the turn. */
const assistantToolCall = Joi.object({
  id: toolCallId.required(),
  type: Joi.valid("function").required(),
  function: Joi.object({
    name: functionNameSchema.required(),
    arguments: Joi.string().max(TOOL_ARGUMENTS_MAX_CHARS).allow("").required(),
  })
    .unknown(false)
    .required(),
}).unknown(false);

/**
 * One message of the conversation, as OpenAI takes it: `developer` is OpenAI's newer name for
 * `system`; an assistant turn may carry the tool calls it made, and each `tool` message answers
 * one of them by its id. `function` messages (OpenAI's deprecated form) are refused.
 */
const message = Joi.object({
  role: Joi.string().valid("system", "developer", "user", "assistant", "tool").required().messages({
    "any.only":
      "{{#label}} must be one of 'system', 'developer', 'user', 'assistant' or 'tool' ('function' messages are OpenAI's deprecated form: answer tool calls with 'tool' messages)",
  }),
  content: Joi.when("role", {
    switch: [
      { is: "user", then: userContent.required() },
      { is: "assistant", then: textContent.allow(null) },
    ],
    otherwise: textContent.required(),
  }),
  name: Joi.string().max(200),
  tool_calls: Joi.when("role", {
    is: "assistant",
    then: Joi.array().items(assistantToolCall).max(TOOL_CALLS_MAX_PER_ANSWER),
    otherwise: Joi.forbidden(),
  }),
  tool_call_id: Joi.when("role", { is: "tool", then: toolCallId.required(), otherwise: Joi.forbidden() }),
  refusal: Joi.when("role", {
    is: "assistant",
    then: Joi.string().max(MAX_TEXT).allow(null),
    otherwise: Joi.forbidden(),
  }),
  // What OpenAI's answers carry and clients send back with the turn: taken, not passed on.
  annotations: Joi.when("role", { is: "assistant", then: Joi.array().max(1_000), otherwise: Joi.forbidden() }),
  audio: Joi.valid(null),
  function_call: Joi.valid(null),
}).unknown(false);

/** A function the model may call; the client runs it (`parameters`: a JSON schema of its arguments). */
const chatTool = Joi.object({
  type: Joi.valid("function").required().messages({
    "any.only": "{{#label}} must be 'function': custom (free-text) tools are not taken",
  }),
  function: Joi.object({
    name: functionNameSchema.required(),
    description: Joi.string().max(MAX_TOOL_DESCRIPTION).allow(""),
    parameters: Joi.object().unknown(true),
    strict: Joi.boolean().allow(null),
  })
    .unknown(false)
    .required(),
}).unknown(false);

/** Which tool the model must call: none, any it chooses, at least one, or the one named. */
const toolChoice = Joi.alternatives(
  Joi.valid("none", "auto", "required"),
  Joi.object({
    type: Joi.valid("function").required(),
    function: Joi.object({ name: functionNameSchema.required() }).unknown(false).required(),
  }).unknown(false),
).messages({
  "alternatives.match":
    "{{#label}} must be 'none', 'auto', 'required' or {type: 'function', function: {name}} (allowed_tools and custom tools are not taken)",
});

/**
 * OpenAI's fields this endpoint takes and does not act on (storage, the tier, caching and safety
 * ids, output verbosity): accepted, as OpenAI clients send them, and never passed to the model.
 */
const IGNORED_FIELDS = [
  "store",
  "metadata",
  "service_tier",
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
    .description("The conversation, passed to the model as it is"),
  temperature: llmArgsSchema.extract("temperature").description("0–2; default 0.5"),
  max_tokens: Joi.number().integer().min(1).max(1_000_000).allow(null).description("Per answer; default 8192"),
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
    .min(1)
    .max(MAX_CHOICES)
    .allow(null)
    .description(`How many answers (1–${MAX_CHOICES}); every one is billed`),
  logprobs: Joi.boolean().allow(null),
  top_logprobs: llmArgsSchema.extract("top_logprobs"),
  parallel_tool_calls: Joi.boolean().allow(null),
  stream: Joi.boolean().allow(null),
  stream_options: Joi.object({ include_usage: Joi.boolean().allow(null) })
    .unknown(true)
    .allow(null)
    .description("`include_usage`: a last chunk with empty `choices` and the `usage`"),
  max_loops: Joi.valid(1, null).messages({
    "any.only":
      "{{#label}} is taken by POST /v1/agent/completions, whose agent reviews its own answer: a chat completion is one call",
  }),
  tools: Joi.array().items(chatTool).max(TOOL_CALLS_MAX_PER_ANSWER).unique("function.name").allow(null).messages({
    "array.unique": "{{#label}} names the same function as an earlier tool",
  }),
  tool_choice: toolChoice.allow(null),
  functions: Joi.valid(null).messages({
    "any.only": "{{#label}} is OpenAI's deprecated form of 'tools': send 'tools' and 'tool_choice'",
  }),
  function_call: Joi.valid(null).messages({
    "any.only": "{{#label}} is OpenAI's deprecated form of 'tool_choice': send 'tools' and 'tool_choice'",
  }),
  audio: Joi.valid(null).messages({ "any.only": "{{#label}} is not supported on this endpoint: answers are text" }),
  modalities: Joi.array()
    .items(Joi.valid("text").messages({ "any.only": "{{#label}} must be 'text': answers are text only" }))
    .allow(null),
  prediction: Joi.valid(null).messages({ "any.only": "{{#label}} is not supported on this endpoint" }),
};

/**
 * The body fields passed to the model as they are: every provider option on the allow-list
 * (shared/llm/provider-options.ts) this endpoint does not ignore, and the client's tools.
 */
export const PASSED_CHAT_OPTIONS = [
  ...Object.keys(providerOptionRules).filter((option) => !IGNORED_FIELDS.includes(option)),
  "tools",
  "tool_choice",
];

/**
 * `POST /v1/chat/completions` (OpenAI's ChatCompletionRequest). Provider options reuse the
 * `llm_args` rules and allow-list for the model; tools are the client's. Options whose answer
 * this endpoint cannot give (audio, predicted outputs, deprecated functions) are refused, so a
 * client never waits for them; OpenAI's fields it does not act on are ignored; any other field is
 * refused naming it, as OpenAI refuses an unrecognized argument.
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
