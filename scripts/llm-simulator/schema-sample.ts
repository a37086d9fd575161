import {
  isSchemaObject,
  merge,
  nonNegativeInt,
  pickType,
  resolvePointer,
  without,
  type Schema,
} from "./schema-keywords";
import { sampleNumber, sampleString } from "./schema-scalar-sample";
import type { JsonSchema } from "./types";

/**
 * Deterministic example values for JSON Schemas (tool arguments, structured outputs).
 *
 * Supported: type (and type arrays), properties, required, additionalProperties, min/maxProperties,
 * enum, const, items / prefixItems, min/maxItems, uniqueItems, minimum / maximum / exclusive bounds,
 * multipleOf, min/maxLength, common formats, anyOf / oneOf (first branch), allOf, local $ref
 * (`#/$defs/...`, `#/definitions/...`, any JSON pointer), nullable. Not supported: `pattern`,
 * `patternProperties`, `not`, `if`/`then`, remote refs.
 */

// Past SOFT_DEPTH only required members are generated, which keeps recursive schemas (trees,
// linked lists) finite; HARD_DEPTH stops schemas whose recursion is itself required.
const SOFT_DEPTH = 6;
const HARD_DEPTH = 24;

/**
 * The most values (and characters of strings) one sample may hold. A schema is a client's, and
 * `$ref`s reused at every level, or a `minItems`/`minLength` of a billion, would otherwise ask for
 * an answer that grows exponentially with the schema, or without bound: such a schema is refused
 * (400, as a provider refuses a schema beyond its limits) instead of freezing the simulator.
 */
const MAX_VALUES = 20_000;
const MAX_STRING_CHARS = 500_000;

/** A schema whose sample would be larger than `MAX_VALUES` values or `MAX_STRING_CHARS` characters. */
export class SampleTooLargeError extends Error {
  constructor() {
    super(
      `The JSON schema asks for an answer larger than the simulator generates (${MAX_VALUES} values, ${MAX_STRING_CHARS} characters of strings)`,
    );
    this.name = "SampleTooLargeError";
  }
}

interface Context {
  root: unknown;
  valuesLeft: number;
  charsLeft: number;
}

/** Takes `values` values and `chars` characters from the sample's allowance; throws past it. */
function spend(ctx: Context, values: number, chars = 0): void {
  ctx.valuesLeft -= values;
  ctx.charsLeft -= chars;
  if (ctx.valuesLeft < 0 || ctx.charsLeft < 0) throw new SampleTooLargeError();
}

/** Mixes a child index into a seed so siblings pick independently yet reproducibly. */
function mix(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

// Assigning through `out[key]` would let a "__proto__" property rewrite the prototype.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Follows `$ref` chains; an unresolvable reference accepts anything. */
function deref(node: unknown, ctx: Context): unknown {
  let current = node;
  for (let hops = 0; isSchemaObject(current) && typeof current.$ref === "string" && hops < HARD_DEPTH; hops++) {
    const target = resolvePointer(ctx.root, current.$ref);
    if (target === undefined) return true;
    const siblings = without(current, "$ref");
    // 2019+ drafts apply keywords next to $ref too; annotations are the common case and harmless.
    current = isSchemaObject(target) && Object.keys(siblings).length > 0 ? merge(target, siblings) : target;
  }
  return current;
}

function sampleArray(node: Schema, ctx: Context, seed: number, depth: number, hint: string | undefined): unknown[] {
  const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : [];
  // Draft 2020-12 puts the rest schema in `items`; older tuple form uses `additionalItems`.
  const rest = Array.isArray(node.items) ? (node.additionalItems ?? true) : (node.items ?? true);
  const min = nonNegativeInt(node.minItems) ?? 0;
  const max = nonNegativeInt(node.maxItems) ?? Infinity;
  let count = depth > SOFT_DEPTH ? min : Math.max(min, 1);
  if (rest === false) count = Math.min(count, prefix.length);
  count = Math.min(count, max);

  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : rest;
    // seed + i (not a hash) walks enums in order, so uniqueItems enum arrays stay distinct.
    out.push(sampleNode(itemSchema, ctx, (seed + i) >>> 0, depth + 1, hint));
  }
  if (node.uniqueItems === true) makeDistinct(out);
  return out;
}

/** The first string field of an object item, which makeDistinct keeps distinct (e.g. a query's text). */
function firstStringField(value: unknown): string | undefined {
  return isSchemaObject(value) ? Object.keys(value).find((k) => typeof value[k] === "string") : undefined;
}

/**
 * Best effort for `uniqueItems`: suffix repeated strings, bump repeated numbers, and suffix the
 * first string field of objects that repeat it (so a list of `{query, ...}` items holds distinct
 * queries, not merely distinct objects).
 */
function makeDistinct(values: unknown[]): void {
  const seen = new Set<string>();
  const keyOf = (value: unknown) => {
    const field = firstStringField(value);
    return field ? `field:${String((value as Record<string, unknown>)[field])}` : JSON.stringify(value);
  };
  values.forEach((value, i) => {
    let key = keyOf(value);
    if (!seen.has(key)) {
      seen.add(key);
      return;
    }
    const field = firstStringField(value);
    if (typeof value === "string") values[i] = `${value} ${i + 1}`;
    else if (typeof value === "number") values[i] = value + i;
    else if (field)
      values[i] = { ...(value as object), [field]: `${String((value as Record<string, unknown>)[field])} ${i + 1}` };
    key = keyOf(values[i]);
    seen.add(key);
  });
}

function sampleObject(node: Schema, ctx: Context, seed: number, depth: number): Record<string, unknown> {
  const properties = isSchemaObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === "string") : [];
  const additional = node.additionalProperties === undefined ? true : node.additionalProperties;
  const shallow = depth <= SOFT_DEPTH;
  const out: Record<string, unknown> = {};

  let index = 0;
  for (const key of Object.keys(properties)) {
    const sub = properties[key];
    // Optional properties are filled too (callers want to see every field) unless recursion is deep.
    if (sub === false || (!shallow && !required.includes(key))) continue;
    setOwn(out, key, sampleNode(sub, ctx, mix(seed, index++), depth + 1, key));
  }
  for (const key of required) {
    if (!Object.hasOwn(out, key)) setOwn(out, key, sampleNode(additional, ctx, mix(seed, index++), depth + 1, key));
  }
  const minProperties = nonNegativeInt(node.minProperties) ?? 0;
  for (let n = 1; Object.keys(out).length < minProperties && additional !== false; n++) {
    const key = `extra_${n}`;
    if (!Object.hasOwn(out, key)) setOwn(out, key, sampleNode(additional, ctx, mix(seed, index++), depth + 1, key));
  }
  const maxProperties = nonNegativeInt(node.maxProperties);
  if (maxProperties !== undefined) {
    const optional = Object.keys(out).filter((k) => !required.includes(k));
    while (Object.keys(out).length > maxProperties && optional.length > 0) delete out[optional.pop() as string];
  }
  return out;
}

function sampleNode(raw: unknown, ctx: Context, seed: number, depth: number, hint?: string): unknown {
  if (depth > HARD_DEPTH) return null;
  spend(ctx, 1);
  const node = deref(raw, ctx);
  if (node === false) return null; // unsatisfiable; null is the least surprising filler
  if (!isSchemaObject(node)) return hint ? `simulated ${hint}` : "simulated"; // `true` / {}: anything goes

  if ("const" in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[seed % node.enum.length];

  if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    const { allOf, ...base } = node;
    spend(ctx, allOf.length); // each member is merged into a copy of what came before
    let merged: Schema = base;
    for (const member of allOf) {
      const resolved = deref(member, ctx);
      if (isSchemaObject(resolved)) merged = merge(merged, resolved);
    }
    return sampleNode(merged, ctx, seed, depth + 1, hint);
  }
  const branches = Array.isArray(node.anyOf) && node.anyOf.length > 0 ? node.anyOf : node.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    const base = without(node, "anyOf", "oneOf");
    const branch = deref(branches[0], ctx);
    const chosen = isSchemaObject(branch) ? merge(base, branch) : branch === true ? base : branch;
    return sampleNode(chosen, ctx, seed, depth + 1, hint);
  }

  switch (pickType(node)) {
    case "object":
      return sampleObject(node, ctx, seed, depth);
    case "array":
      return sampleArray(node, ctx, seed, depth, hint);
    case "string":
      spend(ctx, 0, nonNegativeInt(node.minLength) ?? 0); // before padding to it
      return sampleString(node, seed, hint);
    case "integer":
      return sampleNumber(node, true);
    case "number":
      return sampleNumber(node, false);
    case "boolean":
      return seed % 2 === 0;
    case "null":
      return null;
    default:
      return hint ? `simulated ${hint}` : "simulated";
  }
}

/**
 * A JSON value valid against `schema` (within the supported keywords), chosen deterministically:
 * the same schema and seed always give the same value, and `seed` varies enum and boolean picks.
 * Throws {@link SampleTooLargeError} when the value would be too large to generate.
 */
export function sampleSchema(schema: JsonSchema | undefined, seed: number): unknown {
  const ctx = { root: schema, valuesLeft: MAX_VALUES, charsLeft: MAX_STRING_CHARS };
  return sampleNode(schema ?? true, ctx, seed >>> 0, 0);
}
