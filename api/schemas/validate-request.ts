import Joi from "joi";

/** How request bodies are validated everywhere: every problem at once, defaults applied, unknown fields dropped. */
export const REQUEST_VALIDATION: Joi.ValidationOptions = { abortEarly: false, stripUnknown: true, convert: true };

type Description = {
  type?: string;
  flags?: { id?: string };
  keys?: Record<string, Description>;
  items?: Description[];
  rules?: { name: string; args?: { limit?: number } }[];
  link?: { ref?: { path?: string[]; type?: string } };
};

/** Schemas an `id` names, for the `Joi.link`s below them (handoffs are agents, validated as their parent). */
type Named = ReadonlyMap<string, Description>;

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
 * objects, arrays and links (a handoff's own handoffs and tools). joi validates every item before
 * it checks an array's length, and runs `unique` comparators on every pair even then, so 32,000
 * handoffs sent where 20 are allowed took 41 s of CPU (blocking every other request) just to be
 * refused.
 */
function oversizedArrays(
  schema: Description,
  value: unknown,
  path: (string | number)[] = [],
  named: Named = new Map(),
): Joi.ValidationErrorItem[] {
  let described = schema;
  if (described.type === "link") {
    const [id] = described.link?.ref?.type === "local" ? (described.link.ref.path ?? []) : [];
    const target = id === undefined ? undefined : named.get(id);
    if (!target) return [];
    described = target;
  }
  if (described.flags?.id) named = new Map(named).set(described.flags.id, described);
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
    return item ? value.flatMap((v, i) => oversizedArrays(item, v, [...path, i], named)) : [];
  }
  if (
    described.type === "object" &&
    described.keys &&
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value)
  ) {
    return Object.entries(described.keys).flatMap(([key, child]) =>
      Object.hasOwn(value, key)
        ? oversizedArrays(child, (value as Record<string, unknown>)[key], [...path, key], named)
        : [],
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
