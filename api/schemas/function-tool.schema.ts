import Joi from "joi";
import { functionOfToolItem, TOOL_NAME_PATTERN } from "../../shared/llm/function-tool-items";
import { isPlainObject } from "./plain-object";

/** A function name providers take (also the name of a structured-output schema). */
export const functionNameSchema = Joi.string().pattern(TOOL_NAME_PATTERN, { name: "function name" }).messages({
  "string.pattern.name":
    "{{#label}} must be 1 to 64 letters, digits, '_' or '-' (the providers' rule for function names)",
});

/**
 * One `tools_list_dictionary` item: the OpenAI shape `{type: "function", function: {name, …}}` or
 * the bare function `{name, …}`, read as the worker reads it (`functionOfToolItem`). The name must
 * be one providers take: the worker would otherwise drop the tool in silence, or the provider
 * refuse the whole call after the run was stored.
 */
const functionTool = Joi.object({ type: Joi.any(), function: Joi.any(), name: Joi.any() })
  .unknown(true)
  .when(
    Joi.object({ type: Joi.valid("function").required(), function: Joi.object().unknown(true).required() }).unknown(
      true,
    ),
    {
      then: Joi.object({ function: Joi.object({ name: functionNameSchema.required() }).unknown(true) }).unknown(true),
      otherwise: Joi.object({ name: functionNameSchema.required() }).unknown(true),
    },
  );

/** `tools_list_dictionary`: function tools with distinct names (providers refuse a call offering two of one name). */
export const functionToolsSchema = Joi.array()
  .items(functionTool)
  .max(128)
  .unique((a, b) => isPlainObject(a) && isPlainObject(b) && functionOfToolItem(a).name === functionOfToolItem(b).name)
  .messages({ "array.unique": "{{#label}} names the same function as an earlier tool" })
  .allow(null);
