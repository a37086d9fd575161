import Joi from "joi";

/** OpenAI's error body, on the OpenAI-compatible paths. Documents responses; nothing validates with it at run time. */
export const openAiErrorBodySchema = Joi.object({
  error: Joi.object({
    message: Joi.string().required(),
    type: Joi.string()
      .required()
      .description(
        "`invalid_request_error` (400, 404, 409, 413), `authentication_error` (401), `permission_error` (403), `rate_limit_error` (429), `server_error` (5xx)",
      ),
    param: Joi.string().allow(null).required().description("The parameter at fault, e.g. `messages[0].role`"),
    code: Joi.string()
      .allow(null)
      .required()
      .description("e.g. `invalid_api_key`, `model_not_found`, `rate_limit_exceeded`, `invalid_value`"),
    job_id: Joi.string().description("The run the error is about (a failed or unfinished run)"),
    agent: Joi.string().description("The agent whose turn failed"),
    request_id: Joi.string().description("Quote it when reporting an internal error"),
  }).required(),
}).id("OpenAIError");

const usage = Joi.object({
  prompt_tokens: Joi.number().integer().min(0).required(),
  completion_tokens: Joi.number().integer().min(0).required(),
  total_tokens: Joi.number().integer().min(0).required(),
}).id("CompletionUsage");

/** A function call the model asks the client to run. */
const toolCall = Joi.object({
  id: Joi.string().required(),
  type: Joi.valid("function").required(),
  function: Joi.object({
    name: Joi.string().required(),
    arguments: Joi.string().allow("").required().description("JSON text, as the model wrote it"),
  }).required(),
}).id("ChatCompletionMessageToolCall");

/** One token's log probability and its alternatives. */
const tokenLogprob = Joi.object({
  token: Joi.string().allow("").required(),
  logprob: Joi.number().required(),
  bytes: Joi.array().items(Joi.number().integer()).allow(null).required(),
  top_logprobs: Joi.array()
    .items(
      Joi.object({
        token: Joi.string().allow("").required(),
        logprob: Joi.number().required(),
        bytes: Joi.array().items(Joi.number().integer()).allow(null).required(),
      }),
    )
    .required(),
}).id("ChatCompletionTokenLogprob");

/** `POST /v1/chat/completions`: OpenAI's `chat.completion`. */
export const chatCompletionResponseSchema = Joi.object({
  id: Joi.string()
    .pattern(/^chatcmpl-[0-9a-f]+$/)
    .required(),
  object: Joi.valid("chat.completion").required(),
  created: Joi.number().integer().required().description("Unix seconds"),
  model: Joi.string().required().description("The requested model"),
  choices: Joi.array()
    .items(
      Joi.object({
        index: Joi.number().integer().min(0).required(),
        message: Joi.object({
          role: Joi.valid("assistant").required(),
          content: Joi.string().allow("", null).required().description("Null when the answer is tool calls only"),
          refusal: Joi.string().allow(null).required(),
          tool_calls: Joi.array().items(toolCall).description("The functions the model calls: the client runs them"),
        }).required(),
        logprobs: Joi.object({
          content: Joi.array().items(tokenLogprob).allow(null).required(),
          refusal: Joi.array().items(tokenLogprob).allow(null).required(),
        })
          .allow(null)
          .required()
          .description("With `logprobs: true`"),
        finish_reason: Joi.valid("stop", "length", "tool_calls", "content_filter", "function_call").required(),
      }),
    )
    .min(0)
    .max(8)
    .required()
    .description("One answer per `n`"),
  usage: usage.required(),
  system_fingerprint: Joi.string().allow(null).required().description("The provider's, when it gives one"),
}).id("ChatCompletion");

/** `GET /v1/models/{model}`, and each model of the list. */
export const openAiModelSchema = Joi.object({
  id: Joi.string().required(),
  object: Joi.valid("model").required(),
  created: Joi.number().integer().required(),
  owned_by: Joi.string().required().description("The provider that serves it"),
}).id("OpenAIModel");

/** `GET /v1/models`. */
export const openAiModelListSchema = Joi.object({
  object: Joi.valid("list").required(),
  data: Joi.array().items(openAiModelSchema).required(),
}).id("OpenAIModelList");
