/** A JSON Schema object, as function `parameters`. */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * A tool's MCP `inputSchema` as OpenAI function `parameters`. `$schema` goes because several
 * providers reject the keyword, and anything that is not an object schema becomes an empty one,
 * because function parameters must be an object (the model then calls the tool without arguments).
 */
export function toolParameters(inputSchema: unknown): JsonSchemaObject {
  if (!inputSchema || typeof inputSchema !== "object" || Array.isArray(inputSchema))
    return { type: "object", properties: {} };
  const { $schema: _dropped, ...schema } = inputSchema as JsonSchemaObject;
  if (schema.type !== "object") return { type: "object", properties: {} };
  // Some providers refuse an object schema without `properties`, which MCP allows.
  if (!schema.properties || typeof schema.properties !== "object") schema.properties = {};
  return schema;
}
