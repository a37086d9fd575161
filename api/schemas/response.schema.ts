import Joi from "joi";
import { imageSchema } from "./image.schema";
import { providerOptionRules } from "./provider-options.schema";
import { nonBlankString } from "./text.schema";

/** Most items one input takes (a conversation's turns and tool calls). */
const MAX_INPUT_ITEMS = 1_000;
/** Most characters of one text (an input text part, the instructions, a tool's output). */
const MAX_TEXT = 1_000_000;
/** Most tools one request declares, as OpenAI allows. */
const MAX_TOOLS = 128;

/** OpenAI's metadata bounds: 16 keys of up to 64 characters, each a string of up to 512. */
const metadata = Joi.object()
  .max(16)
  .pattern(Joi.string().max(64), Joi.string().max(512).allow(""))
  .allow(null)
  .description("Up to 16 keys (64 characters) with string values (512 characters), kept with the response");

const text = Joi.string().max(MAX_TEXT).allow("");

/** A string, or else `array` (whose own problems are then named, not "matches no alternative"). */
const textOrArray = (array: Joi.ArraySchema) =>
  Joi.alternatives().conditional(Joi.array(), { then: array, otherwise: text });

/** A content part: text or an image; files and audio are refused, as no model call here reads them. */
const contentPart = Joi.object({
  type: Joi.string().valid("input_text", "input_image", "output_text", "refusal").required().messages({
    "any.only":
      "{{#label}} must be 'input_text', 'input_image', 'output_text' or 'refusal' (input files and audio are not supported: Apiary has no file store and its models take text and images)",
  }),
  text: Joi.when("type", { is: Joi.valid("input_text", "output_text"), then: text.required() }),
  refusal: Joi.when("type", { is: "refusal", then: text.required() }),
  image_url: Joi.when("type", {
    is: "input_image",
    then: imageSchema.required().messages({
      "any.required":
        "{{#label}} is required: images are taken by URL or data URI (there is no file store for file_id)",
    }),
  }),
  detail: Joi.when("type", { is: "input_image", then: Joi.string().valid("auto", "low", "high").allow(null) }),
  file_id: Joi.valid(null).messages({ "any.only": "{{#label}} is not supported: Apiary has no file store" }),
  annotations: Joi.array().max(0).messages({ "array.max": "{{#label}} must be empty: no annotations are made here" }),
  logprobs: Joi.any(),
}).unknown(false);

/** An item's id as a client may send it back (ids of earlier output). */
const itemId = Joi.string().max(200);
const itemStatus = Joi.string().valid("in_progress", "completed", "incomplete");

const message = Joi.object({
  type: Joi.string().valid("message"),
  id: itemId,
  status: itemStatus,
  role: Joi.string().valid("user", "system", "developer", "assistant").required(),
  content: textOrArray(Joi.array().items(contentPart).min(1).max(100)).required(),
}).unknown(false);

const functionCall = Joi.object({
  type: Joi.string().valid("function_call").required(),
  id: itemId,
  status: itemStatus,
  call_id: Joi.string().max(200).required(),
  name: Joi.string().max(64).required(),
  arguments: text.required(),
}).unknown(false);

const functionCallOutput = Joi.object({
  type: Joi.string().valid("function_call_output").required(),
  id: itemId.allow(null),
  status: itemStatus.allow(null),
  call_id: Joi.string().max(200).required(),
  output: textOrArray(
    Joi.array()
      .items(Joi.object({ type: Joi.valid("input_text").required(), text: text.required() }))
      .max(100),
  ).required(),
}).unknown(false);

/** The item kinds this endpoint reads; any other kind names a tool or state only OpenAI's servers hold. */
const TAKEN_ITEMS = ["message", "function_call", "function_call_output"];

const inputItem = Joi.alternatives().conditional(".type", {
  switch: [
    { is: "function_call", then: functionCall },
    { is: "function_call_output", then: functionCallOutput },
    { is: Joi.valid("message", null).optional(), then: message },
  ],
  otherwise: Joi.object({
    type: Joi.valid(...TAKEN_ITEMS).messages({
      "any.only":
        "{{#label}} must be 'message', 'function_call' or 'function_call_output': other items (item_reference, reasoning, built-in tool calls) refer to state or tools Apiary does not have",
    }),
  }).unknown(true),
});

/** A `function` tool in the Responses shape (flat: name, description, parameters, strict). */
const functionTool = Joi.object({
  type: Joi.string().valid("function").required(),
  name: Joi.string()
    .pattern(/^[a-zA-Z0-9_-]{1,64}$/)
    .required()
    .messages({ "string.pattern.base": "{{#label}} must be 1–64 letters, digits, '_' or '-'" }),
  description: Joi.string().max(10_000).allow("", null),
  parameters: Joi.object().unknown(true).allow(null),
  strict: Joi.boolean().allow(null),
}).unknown(false);

const tool = Joi.alternatives().conditional(".type", {
  is: "function",
  then: functionTool,
  otherwise: Joi.object({
    type: Joi.valid("function").messages({
      "any.only":
        "{{#label}} must be 'function': built-in tools (web_search, file_search, code_interpreter, computer_use, mcp, image_generation, …) run on OpenAI's servers and Apiary does not have them; declare a function and run it yourself",
    }),
  }).unknown(true),
});

const toolChoice = Joi.alternatives(
  Joi.string().valid("none", "auto", "required"),
  Joi.object({ type: Joi.valid("function").required(), name: Joi.string().max(64).required() }).unknown(false),
).messages({
  "alternatives.match":
    "{{#label}} must be 'none', 'auto', 'required' or a function by name (type 'function'): only function tools are taken",
});

const textFormat = Joi.object({
  type: Joi.string().valid("text", "json_object", "json_schema").required(),
  name: Joi.when("type", { is: "json_schema", then: Joi.string().max(64).required() }),
  schema: Joi.when("type", { is: "json_schema", then: Joi.object().unknown(true).required() }),
  description: Joi.when("type", { is: "json_schema", then: Joi.string().max(10_000) }),
  strict: Joi.when("type", { is: "json_schema", then: Joi.boolean().allow(null) }),
}).unknown(false);

/** A field Apiary cannot honour: refused (400) naming why, unless it is absent or null. */
const refused = (why: string) => Joi.valid(null).messages({ "any.only": `{{#label}} is not supported: ${why}` });

/**
 * `POST /v1/responses` (OpenAI's ResponseCreateParams), bounded: what a chat call can do is taken;
 * what only OpenAI's servers hold (built-in tools, conversations, prompt templates, files) is
 * refused naming the parameter and why; any other field is refused as OpenAI refuses an unknown one.
 */
export const responseCreateSchema = Joi.object({
  model: nonBlankString().max(200).required().description("The model the call is made to (`GET /v1/models`)"),
  input: textOrArray(Joi.array().items(inputItem).max(MAX_INPUT_ITEMS)).description(
    "A user message as a string, or message, function_call and function_call_output items",
  ),
  instructions: text.allow(null).description("Sent first as a system message; not carried to a continuation"),
  previous_response_id: Joi.string().max(100).allow(null),
  tools: Joi.array().items(tool).max(MAX_TOOLS).allow(null),
  tool_choice: toolChoice.allow(null),
  parallel_tool_calls: Joi.boolean().allow(null),
  text: Joi.object({
    format: textFormat,
    verbosity: Joi.valid("medium", null).messages({
      "any.only": "{{#label}} must be 'medium': the model's verbosity is not a setting of the chat call",
    }),
  })
    .unknown(false)
    .allow(null),
  temperature: providerOptionRules.temperature,
  top_p: providerOptionRules.top_p,
  max_output_tokens: Joi.number().integer().min(16).max(1_000_000).allow(null),
  reasoning: Joi.object({
    effort: providerOptionRules.reasoning_effort,
    summary: refused("reasoning summaries are not returned by the chat call Apiary makes"),
    generate_summary: refused("reasoning summaries are not returned by the chat call Apiary makes"),
  })
    .unknown(false)
    .allow(null),
  metadata,
  store: Joi.boolean().allow(null),
  background: Joi.boolean().allow(null),
  stream: Joi.boolean().allow(null),
  stream_options: Joi.object({ include_obfuscation: Joi.boolean().allow(null) })
    .unknown(false)
    .allow(null),
  service_tier: Joi.string().valid("auto", "default", "flex").allow(null).messages({
    "any.only": "{{#label}} must be 'auto', 'default' or 'flex' (Apiary has no priority or scale tier)",
  }),
  truncation: Joi.string().valid("disabled").allow(null).messages({
    "any.only": "{{#label}} must be 'disabled': Apiary does not trim a conversation to the model's context window",
  }),
  user: Joi.string().max(256).allow("", null),
  safety_identifier: Joi.string().max(64).allow("", null),
  prompt_cache_key: Joi.string().max(256).allow("", null),
  prompt_cache_retention: Joi.string().valid("in_memory", "24h").allow(null),
  include: Joi.array().max(0).allow(null).messages({
    "array.max":
      "{{#label}} must be empty: no extra output (logprobs, encrypted reasoning, tool results) is kept by Apiary",
  }),
  top_logprobs: Joi.valid(0, null).messages({
    "any.only": "{{#label}} is not supported: answers carry no log probabilities here",
  }),
  conversation: refused("Apiary keeps no conversations; continue one with previous_response_id"),
  prompt: refused("prompt templates are stored by OpenAI and Apiary has none"),
  max_tool_calls: refused("built-in tools are not supported, and function calls are the client's to make"),
  context_management: refused("Apiary does not compact conversations"),
}).unknown(false);
