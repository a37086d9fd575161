import Joi from "joi";
import { functionNameSchema } from "./function-tool.schema";

/**
 * `llm_args.response_format`, the structured-output setting, in the shape OpenAI-compatible
 * providers take: a provider refuses any other shape, which would fail the run after it was stored.
 */
const responseFormat = Joi.object({
  type: Joi.string().valid("text", "json_object", "json_schema").required(),
  json_schema: Joi.when("type", {
    is: "json_schema",
    then: Joi.object({ name: functionNameSchema.required(), schema: Joi.object().unknown(true) }).unknown(true).required(),
  }),
}).unknown(true);

/** Spec: AgentSpec `llm_args`, extra provider options; the fields the service reads are checked. */
export const llmArgsSchema = Joi.object({ response_format: responseFormat.allow(null) }).unknown(true).allow(null);
