import Joi from "joi";

/** Documents the Responses API's answers (OpenAI's shapes); nothing validates with them at run time. */

const outputText = Joi.object({
  type: Joi.valid("output_text").required(),
  text: Joi.string().allow("").required(),
  annotations: Joi.array().length(0).required(),
  logprobs: Joi.array().length(0).required(),
});

const messageItem = Joi.object({
  type: Joi.valid("message").required(),
  id: Joi.string().required().description("`msg_` and the run id's hex"),
  status: Joi.valid("in_progress", "completed").required(),
  role: Joi.valid("assistant").required(),
  content: Joi.array()
    .items(outputText, Joi.object({ type: Joi.valid("refusal").required(), refusal: Joi.string().required() }))
    .required(),
});

const functionCallItem = Joi.object({
  type: Joi.valid("function_call").required(),
  id: Joi.string().required().description("`fc_`, the run id's hex and the call's index"),
  call_id: Joi.string().required().description("Send it back in the `function_call_output` item of the call's result"),
  name: Joi.string().required(),
  arguments: Joi.string().allow("").required().description("The arguments, as JSON text"),
  status: Joi.valid("in_progress", "completed").required(),
});

const usage = Joi.object({
  input_tokens: Joi.number().integer().min(0).required(),
  input_tokens_details: Joi.object({ cached_tokens: Joi.number().integer().min(0).required() }).required(),
  output_tokens: Joi.number().integer().min(0).required(),
  output_tokens_details: Joi.object({ reasoning_tokens: Joi.number().integer().min(0).required() }).required(),
  total_tokens: Joi.number().integer().min(0).required(),
}).id("ResponseUsage");

const nullableString = Joi.string().allow(null, "");

/** OpenAI's `response` object. */
export const responseObjectSchema = Joi.object({
  id: Joi.string()
    .pattern(/^resp_[0-9a-f]{32}$/)
    .required()
    .description("`resp_` and the run id's hex: `GET /v1/jobs/{job_id}` reads the run behind it"),
  object: Joi.valid("response").required(),
  created_at: Joi.number().integer().required().description("Unix seconds"),
  status: Joi.valid("queued", "in_progress", "completed", "failed", "cancelled", "incomplete").required(),
  background: Joi.boolean().required(),
  completed_at: Joi.number().integer().allow(null).required(),
  error: Joi.object({ code: Joi.string().required(), message: Joi.string().required() }).allow(null).required(),
  incomplete_details: Joi.object({ reason: Joi.valid("max_output_tokens", "content_filter").required() })
    .allow(null)
    .required(),
  instructions: nullableString.required(),
  max_output_tokens: Joi.number().integer().allow(null).required(),
  metadata: Joi.object().pattern(Joi.string(), Joi.string().allow("")).required(),
  model: Joi.string().required(),
  output: Joi.array().items(messageItem, functionCallItem).required(),
  parallel_tool_calls: Joi.boolean().required(),
  previous_response_id: nullableString.required(),
  prompt_cache_key: nullableString.required(),
  reasoning: Joi.object({ effort: nullableString.required(), summary: Joi.valid(null).required() }).required(),
  safety_identifier: nullableString.required(),
  service_tier: Joi.valid("auto", "default", "flex").required(),
  store: Joi.boolean().required(),
  temperature: Joi.number().allow(null).required(),
  text: Joi.object({ format: Joi.object().unknown(true).required() }).required(),
  tool_choice: Joi.alternatives(Joi.string(), Joi.object().unknown(true)).required(),
  tools: Joi.array().items(Joi.object().unknown(true)).required(),
  top_p: Joi.number().allow(null).required(),
  truncation: Joi.valid("disabled").required(),
  usage: usage.allow(null).required(),
  user: nullableString.required(),
}).id("Response");

/** `DELETE /v1/responses/{response_id}`. */
export const deletedResponseSchema = Joi.object({
  id: Joi.string().required(),
  object: Joi.valid("response").required(),
  deleted: Joi.valid(true).required(),
}).id("DeletedResponse");

/** `GET /v1/responses/{response_id}/input_items`. */
export const inputItemListSchema = Joi.object({
  object: Joi.valid("list").required(),
  data: Joi.array()
    .items(
      Joi.object({
        type: Joi.valid("message", "function_call", "function_call_output").required(),
        id: Joi.string().required(),
        status: Joi.valid("completed").required(),
      }).unknown(true),
    )
    .required(),
  first_id: Joi.string().allow(null).required(),
  last_id: Joi.string().allow(null).required(),
  has_more: Joi.boolean().required(),
}).id("ResponseItemList");
