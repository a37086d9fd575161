import Joi from "joi";

/** How request bodies are validated everywhere: every problem at once, defaults applied, unknown fields dropped. */
export const REQUEST_VALIDATION: Joi.ValidationOptions = { abortEarly: false, stripUnknown: true, convert: true };

type Description = {
  type?: string;
  keys?: Record<string, Description>;
  items?: Description[];
  rules?: { name: string; args?: { limit?: number } }[];
};

const descriptions = new WeakMap<Joi.Schema, Description>();

function describe(schema: Joi.Schema): Description {
  let described = descriptions.get(schema);
  if (!described) descriptions.set(schema, (described = schema.describe() as Description));
  return described;
}

function label(path: (string | number)[]): string {
  if (path.length === 0) return "value";
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}

/**
 * Arrays longer than their schema's `max`, found by walking the value along the schema's plain
 * objects and arrays. joi validates every item before it checks an array's length, so 10,000
 * agents sent where 100 are allowed would cost seconds of CPU (blocking every other request)
 * just to be refused.
 */
function oversizedArrays(
  described: Description,
  value: unknown,
  path: (string | number)[] = [],
): Joi.ValidationErrorItem[] {
  if (described.type === "array" && Array.isArray(value)) {
    const limit = described.rules?.find((r) => r.name === "max")?.args?.limit;
    if (typeof limit === "number" && value.length > limit) {
      return [
        {
          message: `"${label(path)}" must contain less than or equal to ${limit} items`,
          path,
          type: "array.max",
          context: { limit, label: label(path) },
        },
      ];
    }
    const item = described.items?.length === 1 ? described.items[0] : undefined;
    return item ? value.flatMap((v, i) => oversizedArrays(item, v, [...path, i])) : [];
  }
  if (
    described.type === "object" &&
    described.keys &&
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value)
  ) {
    return Object.entries(described.keys).flatMap(([key, child]) =>
      Object.hasOwn(value, key) ? oversizedArrays(child, (value as Record<string, unknown>)[key], [...path, key]) : [],
    );
  }
  return [];
}

/** `schema.validate(value)` with the request options, refusing oversized arrays before joi looks at their items. */
export function validateRequest(schema: Joi.Schema, value: unknown): Joi.ValidationResult {
  const oversized = oversizedArrays(describe(schema), value);
  if (oversized.length > 0)
    return { value, error: new Joi.ValidationError(oversized.map((d) => d.message).join(". "), oversized, value) };
  return schema.validate(value, REQUEST_VALIDATION);
}
