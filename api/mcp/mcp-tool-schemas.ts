import type Joi from "joi";
import { joiToJsonSchema, type JsonSchema } from "../openapi/joi-json-schema";

/** Where the OpenAPI document keeps named schemas, and where a self-contained JSON Schema keeps them. */
const COMPONENTS_REF = "#/components/schemas/";
const DEFS_REF = "#/$defs/";

/**
 * A request's joi schema as a self-contained JSON Schema for an MCP tool's `inputSchema`: converted
 * as the OpenAPI document converts it (so the tool and the endpoint never describe different bodies),
 * with the named schemas it refers to carried in its own `$defs`.
 */
export function toolInputSchema(schema: Joi.Schema): JsonSchema & { type: "object" } {
  const components: Record<string, JsonSchema> = {};
  const converted = joiToJsonSchema(schema, components);
  const withDefs = Object.keys(components).length > 0 ? { ...converted, $defs: components } : converted;
  const json = JSON.stringify(withDefs).replaceAll(`"${COMPONENTS_REF}`, `"${DEFS_REF}`);
  return { ...(JSON.parse(json) as JsonSchema), type: "object" };
}
