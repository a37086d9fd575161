import type Joi from "joi";
import OpenApi31Parser from "joi-to-json/lib/parsers/open-api-3.1";

/**
 * A JSON Schema 2020-12 object, as OpenAPI 3.1 embeds it (also used for the other OpenAPI objects
 * built from schemas): the keywords this code reads or writes are typed, any other passes through.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  not?: JsonSchema;
  description?: string;
  [keyword: string]: unknown;
}

/** The parts of joi's `describe()` output the fixes below read (the parser reads the rest). */
interface JoiDescription {
  type?: string;
  flags?: { id?: string; presence?: string };
  allow?: unknown[];
  keys?: Record<string, JoiDescription>;
  patterns?: { regex?: string; schema?: JoiDescription; rule?: JoiDescription }[];
  whens?: JoiWhen[];
  [field: string]: unknown;
}

/** One `.when()` of a described joi schema. */
interface JoiWhen {
  ref?: { type?: string; ancestor?: number; path?: string[] };
  is?: JoiDescription;
  then?: JoiDescription;
  otherwise?: JoiDescription;
}

/** Keywords that describe a schema rather than constrain it: kept beside a nullable wrapper. */
const ANNOTATIONS = ["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"];

/**
 * `joi-to-json`'s OpenAPI 3.1 parser with the gaps it leaves in the schemas we write closed. It
 * overrides the parser's internal methods, hence the exact version in package.json; the unit test
 * `joi-json-schema.test.ts` checks each fix against joi's own verdicts.
 * - `Joi.alternatives(...).allow(null)` and nullable links came out as `{anyOf: [...], type: "null"}`
 *   (which accepts only null); they become `anyOf: [..., {type: "null"}]`.
 * - `Joi.object().pattern(Joi.string(), value)` (any key) came out as a closed empty object; it
 *   becomes `additionalProperties: <value>`. Regex patterns no longer leave a junk property named
 *   after the regex beside their `patternProperties`.
 * - A named schema (joi `.id()`) made nullable where it is used made its shared definition
 *   nullable everywhere; the use site becomes `anyOf: [{$ref}, {type: "null"}]` instead.
 * - `Joi.any()` came out as a list of all six types; it becomes `{}` (anything).
 * - A key's `.when("<sibling>", {is, then, otherwise})` kept only the key's possible shapes; the
 *   object also gets `allOf: [{if: <sibling matches is>, then: ..., else: ...}]`, so a key that
 *   becomes required (or forbidden) with its sibling's value says so.
 */
class ApiSchemaParser extends OpenApi31Parser {
  override parse(joiSpec: JoiDescription, definitions: Record<string, JsonSchema> = {}, level = 0): JsonSchema {
    // A named schema made nullable where it is used: the component stays non-null, the use site says null.
    if (joiSpec.flags?.id && Array.isArray(joiSpec.allow) && joiSpec.allow.includes(null)) {
      const allow = joiSpec.allow.filter((value: unknown) => value !== null);
      const { schemas: _copy, ...ref } = super.parse(
        { ...joiSpec, allow: allow.length ? allow : undefined },
        definitions,
        level,
      );
      return { anyOf: [ref, { type: "null" }] };
    }
    return super.parse(joiSpec, definitions, level);
  }

  protected override _setObjectProperties(
    schema: JsonSchema,
    joiSpec: JoiDescription,
    definitions: Record<string, JsonSchema>,
    level: number,
  ): void {
    super._setObjectProperties(schema, joiSpec, definitions, level);
    if (schema.type !== "object") return;
    for (const pattern of joiSpec.patterns ?? []) {
      if (pattern.regex !== undefined) {
        delete schema.properties?.[pattern.regex];
      } else if (pattern.schema && pattern.rule) {
        schema.additionalProperties = this.parse(pattern.rule, definitions, level + 1);
        const names = this.parse(pattern.schema, definitions, level + 1);
        if (Object.keys(names).some((k) => k !== "type")) schema.propertyNames = names;
      }
    }
    const conditions: JsonSchema[] = [];
    for (const [key, field] of Object.entries(joiSpec.keys ?? {})) {
      const whens = field.whens ?? [];
      const translated = whens.map((when) => this.siblingCondition(key, when, definitions, level));
      if (whens.length === 0 || translated.includes(null)) continue;
      // The key's own schema is its base shape; what the sibling adds lives in the conditions.
      (schema.properties ??= {})[key] = this.parse({ ...field, whens: undefined }, definitions, level + 1);
      conditions.push(...(translated as JsonSchema[]));
    }
    if (conditions.length) schema.allOf = [...(schema.allOf ?? []), ...conditions];
  }

  /** `key: X.when("sibling", {is, then, otherwise})` as an object-level if/then/else (null when not a sibling reference). */
  private siblingCondition(
    key: string,
    when: JoiWhen,
    definitions: Record<string, JsonSchema>,
    level: number,
  ): JsonSchema | null {
    const ref = when.ref;
    if (!ref || ref.type !== undefined || (ref.ancestor ?? 1) !== 1 || ref.path?.length !== 1 || !when.is) return null;
    const sibling = ref.path[0];
    const ifSibling: JsonSchema = { properties: { [sibling]: this.parse(when.is, definitions, level + 1) } };
    if (when.is.flags?.presence === "required") ifSibling.required = [sibling];
    const condition: JsonSchema = { if: ifSibling };
    const branch = (rule: JoiDescription | undefined): JsonSchema | undefined => {
      if (!rule) return undefined;
      const presence = rule.flags?.presence;
      if (presence === "forbidden") return { not: { required: [key] } };
      const shape = this.parse(rule, definitions, level + 1);
      return {
        ...(Object.keys(shape).length ? { properties: { [key]: shape } } : {}),
        ...(presence === "required" ? { required: [key] } : {}),
      };
    };
    const then = branch(when.then);
    const otherwise = branch(when.otherwise);
    if (then && Object.keys(then).length) condition.then = then;
    if (otherwise && Object.keys(otherwise).length) condition.else = otherwise;
    return condition;
  }

  protected override _setAnyProperties(schema: JsonSchema): void {
    if (schema.type === "any") delete schema.type;
  }

  protected override _addNullTypeIfNullable(schema: JsonSchema, joiSpec: JoiDescription): void {
    const nullable = Array.isArray(joiSpec.allow) && joiSpec.allow.includes(null);
    if (!nullable || schema.type !== undefined || schema.const === null)
      return super._addNullTypeIfNullable(schema, joiSpec);
    if (joiSpec.type === "any" && schema.enum === undefined) return; // anything already includes null
    if (Array.isArray(schema.enum)) {
      if (!schema.enum.includes(null)) schema.enum.push(null);
      return;
    }
    if (Array.isArray(schema.anyOf)) {
      schema.anyOf.push({ type: "null" });
      return;
    }
    // A $ref, oneOf or if/then/else: the schema itself becomes one branch of an anyOf with null.
    const inner: JsonSchema = {};
    for (const key of Object.keys(schema)) {
      if (ANNOTATIONS.includes(key)) continue;
      inner[key] = schema[key];
      delete schema[key];
    }
    schema.anyOf = [inner, { type: "null" }];
  }
}

/**
 * A joi schema as JSON Schema 2020-12 for an OpenAPI 3.1 document. Schemas with a joi `.id()`
 * become `$ref: "#/components/schemas/<id>"`; their definitions are added to `components`
 * (an id already there with another definition is a naming clash, and throws).
 */
export function joiToJsonSchema(schema: Joi.Schema, components: Record<string, JsonSchema>): JsonSchema {
  const definitions: Record<string, JsonSchema> = {};
  const converted = new ApiSchemaParser().parse(schema.describe(), definitions);
  delete converted.schemas; // the parser's copy of `definitions`
  for (const [id, definition] of Object.entries(definitions)) {
    if (components[id] && JSON.stringify(components[id]) !== JSON.stringify(definition)) {
      throw new Error(`Two different joi schemas carry the id '${id}'`);
    }
    components[id] = definition;
  }
  return converted;
}
