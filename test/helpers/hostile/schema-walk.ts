import { randomUUID } from "node:crypto";
import type { Doc } from "../openapi";
import { valueAt, type JsonPath } from "./json-text";

export type JsonSchema = Record<string, any>;
export type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** A place in a request body the document describes. */
export interface Field {
  path: JsonPath;
  schema: JsonSchema;
  /** Whether its parent object requires it. */
  required: boolean;
}

/**
 * Reads the JSON Schemas of one OpenAPI document: follows `#/components/schemas` references,
 * tells which JSON types a schema admits, makes a small valid-looking value, and lists the fields
 * of a body.
 */
export class SchemaWalker {
  constructor(private readonly doc: Doc) {}

  /** The schema itself, with `$ref` chains followed. */
  resolve(schema: JsonSchema | undefined): JsonSchema {
    let current = schema ?? {};
    for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops++) {
      const name = current.$ref.replace(/^#\/components\/schemas\//, "");
      current = this.doc.components?.schemas?.[name] ?? {};
    }
    return current;
  }

  /** The JSON types a schema admits (all of them for `{}`). */
  types(schema: JsonSchema | undefined): Set<JsonType> {
    const s = this.resolve(schema);
    const all: JsonType[] = ["string", "number", "integer", "boolean", "null", "array", "object"];
    const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
    if (branches.length) return new Set(branches.flatMap((b: JsonSchema) => [...this.types(b)]));
    if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonTypeOf));
    if ("const" in s) return new Set([jsonTypeOf(s.const)]);
    if (s.type === undefined) return new Set(all);
    const declared: JsonType[] = Array.isArray(s.type) ? s.type : [s.type];
    return new Set(declared.includes("number") ? [...declared, "integer"] : declared);
  }

  /** The branch of a schema that describes objects (its properties), if any. */
  objectShape(schema: JsonSchema | undefined): JsonSchema | null {
    const s = this.resolve(schema);
    if (s.properties || s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"))) return s;
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
      const shape = this.objectShape(branch);
      if (shape) return shape;
    }
    return null;
  }

  /** The branch of a schema that describes arrays (its items), if any. */
  arrayShape(schema: JsonSchema | undefined): JsonSchema | null {
    const s = this.resolve(schema);
    if (s.type === "array" || (Array.isArray(s.type) && s.type.includes("array")) || s.items) return s;
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
      const shape = this.arrayShape(branch);
      if (shape) return shape;
    }
    return null;
  }

  /** Whether a schema leaves the content of its objects or arrays open (free-form JSON). */
  isFreeForm(schema: JsonSchema | undefined): boolean {
    const object = this.objectShape(schema);
    if (object && object.additionalProperties !== false && Object.keys(object.properties ?? {}).length === 0)
      return true;
    const array = this.arrayShape(schema);
    if (array && (!array.items || this.isFreeForm(array.items))) return true;
    return this.types(schema).size === 7;
  }

  /** A small value the schema should accept: its example, default, first enum value, or one built from its type. */
  sample(schema: JsonSchema | undefined, depth = 0): unknown {
    const s = this.resolve(schema);
    if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
    if (s.default !== undefined) return s.default;
    if ("const" in s) return s.const;
    if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? s.enum[0];
    const branch = s.anyOf?.[0] ?? s.oneOf?.[0];
    if (branch) return this.sample(branch, depth);
    const type: string | undefined = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
    switch (type ?? (s.properties ? "object" : s.items ? "array" : "string")) {
      case "object": {
        const out: Record<string, unknown> = {};
        if (depth < 8) for (const name of s.required ?? []) out[name] = this.sample(s.properties?.[name], depth + 1);
        return out;
      }
      case "array":
        return depth < 8 ? Array.from({ length: s.minItems ?? 0 }, () => this.sample(s.items, depth + 1)) : [];
      case "integer":
      case "number":
        return typeof s.minimum === "number"
          ? s.minimum
          : typeof s.exclusiveMinimum === "number"
            ? s.exclusiveMinimum + 1
            : 1;
      case "boolean":
        return false;
      case "null":
        return null;
      default:
        return sampleString(s);
    }
  }

  /**
   * Every field a body may carry, depth first: the properties of each object the schema describes
   * (present in `value` or not) and, through arrays `value` holds, the fields of their first item.
   */
  fields(schema: JsonSchema | undefined, value: unknown, path: JsonPath = [], depth = 0): Field[] {
    if (depth > 6) return [];
    const found: Field[] = [];
    const object = this.objectShape(schema);
    const here = valueAt(value, path);
    if (
      object?.properties &&
      (here === undefined || (here !== null && typeof here === "object" && !Array.isArray(here)))
    ) {
      const required = new Set<string>(object.required ?? []);
      for (const [name, child] of Object.entries<JsonSchema>(object.properties)) {
        const childPath = [...path, name];
        found.push({ path: childPath, schema: child, required: required.has(name) });
        found.push(...this.fields(child, value, childPath, depth + 1));
      }
    }
    const array = this.arrayShape(schema);
    if (array?.items && Array.isArray(here) && here.length > 0) {
      const itemPath = [...path, 0];
      found.push({ path: itemPath, schema: array.items, required: false });
      found.push(...this.fields(array.items, value, itemPath, depth + 1));
    }
    return found;
  }
}

/** The JSON type of a value (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

function sampleString(s: JsonSchema): string {
  if (s.format === "uri" || s.format === "url") return "https://example.com/hostile";
  if (s.format === "uuid") return randomUUID();
  if (s.format === "date-time") return new Date(0).toISOString();
  if (s.format === "email") return "hostile@example.com";
  return "x".repeat(Math.max(1, s.minLength ?? 1));
}
