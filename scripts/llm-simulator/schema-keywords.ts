/**
 * Reading JSON Schema keywords for the sampler (schema-sample.ts): what a node is, which type it
 * describes, local `$ref` pointers, and merging schemas that must hold together.
 */

/** A schema object, keyword by keyword. */
export type Schema = { [keyword: string]: unknown };

/** True for a schema object (not `true`/`false`, an array or a primitive). */
export function isSchemaObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The keyword's value when it is a non-negative integer (a count or length bound), else undefined. */
export function nonNegativeInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** The node a local `$ref` (`#/...` JSON pointer) names in `root`; undefined when it names nothing. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function typeList(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === "string");
  return undefined;
}

/** Combines two schemas that must both hold (allOf members, a base and its chosen anyOf branch). */
export function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isSchemaObject(a.properties) && isSchemaObject(b.properties)) {
    out.properties = { ...a.properties, ...b.properties };
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    const required = [
      ...(Array.isArray(a.required) ? a.required : []),
      ...(Array.isArray(b.required) ? b.required : []),
    ];
    out.required = [...new Set(required)];
  }
  const ta = typeList(a.type);
  const tb = typeList(b.type);
  if (ta && tb) {
    const both = ta.filter((t) => tb.includes(t) || (t === "integer" && tb.includes("number")));
    out.type = both.length > 0 ? both : tb;
  }
  return out;
}

/** The type `node` describes: its first non-null `type`, else the one its other keywords imply. */
export function pickType(node: Schema): string | undefined {
  const types = typeList(node.type);
  if (types && types.length > 0) return types.find((t) => t !== "null") ?? types[0];
  if ("properties" in node || "additionalProperties" in node || "required" in node) return "object";
  if ("items" in node || "prefixItems" in node || "minItems" in node) return "array";
  if ("minimum" in node || "maximum" in node || "multipleOf" in node) return "number";
  if ("minLength" in node || "maxLength" in node || "format" in node || "pattern" in node) return "string";
  return undefined;
}

/** A copy of `schema` without `keywords`. */
export function without(schema: Schema, ...keywords: string[]): Schema {
  const copy: Schema = { ...schema };
  for (const keyword of keywords) delete copy[keyword];
  return copy;
}
