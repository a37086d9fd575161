import Joi from "joi";
import { oversizedValues, type Description } from "./value-bounds";

/** How request bodies are validated everywhere: every problem at once, defaults applied, unknown fields dropped. */
const REQUEST_VALIDATION: Joi.ValidationOptions = { abortEarly: false, stripUnknown: true, convert: true };

/**
 * Most values joi validates listing every problem; a larger body is validated up to its first
 * problem. joi collects each problem before it answers, and 20 agents' 10,000 wrong `logit_bias`
 * keys (2 MB) overflowed its stack (a 500); 10,000 problems take it about 0.2 s.
 */
export const MAX_VALUES_ALL_PROBLEMS = 10_000;

const descriptions = new WeakMap<Joi.Schema, Description>();

function describe(schema: Joi.Schema): Description {
  let described = descriptions.get(schema);
  if (!described) descriptions.set(schema, (described = schema.describe() as Description));
  return described;
}

/**
 * `schema.validate(value)` with the request options, refusing first, without joi, arrays and
 * objects larger than the schema lets them be (value-bounds.ts): joi would validate every item
 * and key before it counted them. Only the first problem of a body over MAX_VALUES_ALL_PROBLEMS.
 */
export function validateRequest(schema: Joi.Schema, value: unknown): Joi.ValidationResult {
  const { problems, described } = oversizedValues(describe(schema), value);
  if (problems.length > 0)
    return { value, error: new Joi.ValidationError(problems.map((d) => d.message).join(". "), problems, value) };
  const abortEarly = described > MAX_VALUES_ALL_PROBLEMS;
  return schema.validate(value, abortEarly ? { ...REQUEST_VALIDATION, abortEarly } : REQUEST_VALIDATION);
}
