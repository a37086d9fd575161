import Joi from "joi";
import { RESERVED_LLM_ARGS } from "../../shared/contracts/llm-args";
import { functionNameSchema } from "./function-tool.schema";

/**
 * `llm_args.response_format`, the structured-output setting, in the shape OpenAI-compatible
 * providers take: a provider refuses any other shape, which would fail the run after it was stored.
 */
const responseFormat = Joi.object({
  type: Joi.string().valid("text", "json_object", "json_schema").required(),
  json_schema: Joi.when("type", {
    is: "json_schema",
    then: Joi.object({ name: functionNameSchema.required(), schema: Joi.object().unknown(true) })
      .unknown(true)
      .required(),
  }),
}).unknown(true);

/** An output limit in tokens: providers refuse anything but a whole number of at least one. */
/** A presence or frequency penalty, in the range OpenAI documents. */
const penalty = Joi.number().min(-2).max(2).allow(null);

/**
 * The OpenAI-compatible chat-completion options a provider checks, with the ranges OpenAI documents:
 * a value outside them would be refused by the provider, failing the run after it was stored and
 * billed. Explicit `unknown(false)` on the keyed objects: the request's `stripUnknown` would
 * otherwise drop a bad key in silence instead of refusing it.
 */
const providerOptions = {
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
};

/** The fields the service sets itself: refused, since `llm_args` could never change them. */
const reserved = Object.fromEntries(
  RESERVED_LLM_ARGS.map((field) => [
    field,
    Joi.any().forbidden().messages({
      "any.unknown": `{{#label}} is set by the service (the agent's model, its conversation and tools, streaming, its output cap (agent_config.max_tokens) and the service tier are chosen by the request's own fields and budget): it cannot be given in llm_args`,
    }),
  ]),
);

/**
 * Option names that say where a call goes (LiteLLM's `api_base`, an SDK's `base_url`/`baseURL`,
 * Azure's `azure_endpoint`, …), at any depth (`extra_body` included). The service never reads them,
 * but a gateway (`LLM_BASE_URL`) that honours them would send the call, with the operator's
 * credentials, to an address the client picked: where calls go is the operator's choice alone.
 */
const ENDPOINT_OPTION = /^(api[_-]?base|base[_-]?url|api[_-]?url|azure[_-]?endpoint|endpoint([_-]?url)?)$/i;

/**
 * Maps whose keys are names the client chose, not options: a JSON schema's properties and
 * definitions inside `response_format` (anywhere else, such a map could be a gateway's options by
 * another name, and is searched), and the top-level `metadata`'s labels (checked above as short string labels; a `metadata` nested in a
 * provider's own field is not, and is searched like any option). A schema with a `base_url`
 * property describes the answer; it says nothing of where the call goes, so such keys are not taken
 * for options (their values are still searched).
 */
const SCHEMA_NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

/** The path (below the options object) of the first endpoint-naming option in `value`, or null. */
function endpointOption(
  value: unknown,
  path: (string | number)[] = [],
  keysAreNames = false,
): (string | number)[] | null {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = endpointOption(item, [...path, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!keysAreNames && ENDPOINT_OPTION.test(key)) return [...path, key];
      const names =
        (SCHEMA_NAME_MAPS.has(key) && path[0] === "response_format") || (key === "metadata" && path.length === 0);
      const found = endpointOption(item, [...path, key], !keysAreNames && names);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Spec: AgentSpec `llm_args`, extra provider options. The options OpenAI-compatible providers check
 * are checked here; other fields (a gateway's or provider's own) pass through unchecked.
 */
export const llmArgsSchema = Joi.object({
  response_format: responseFormat.allow(null),
  ...providerOptions,
  ...reserved,
})
  .unknown(true)
  .custom((value: Record<string, unknown>, helpers) => {
    const at = endpointOption(value);
    if (!at) return value;
    return helpers.error("options.endpoint", {}, { ...helpers.state, path: [...(helpers.state.path ?? []), ...at] });
  })
  .messages({
    "options.endpoint":
      "{{#label}} names where the provider call goes: the service sends its calls only to the providers and gateway the operator configured",
  })
  .allow(null);
