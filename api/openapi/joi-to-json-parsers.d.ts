/** The OpenAPI 3.1 parser class of `joi-to-json` (the package types only its `parse` function). */
declare module "joi-to-json/lib/parsers/open-api-3.1" {
  type JsonSchema = Record<string, unknown>;
  /** joi's `describe()` output. */
  type Description = Record<string, unknown>;
  class JoiOpenApiThreePointOneSchemaParser {
    constructor(options?: Record<string, unknown>);
    parse(description: Description, definitions?: Record<string, JsonSchema>, level?: number): JsonSchema;
    protected _setObjectProperties(
      schema: JsonSchema,
      joiSpec: Description,
      definitions: Record<string, JsonSchema>,
      level: number,
    ): void;
    protected _setAnyProperties(
      schema: JsonSchema,
      joiSpec: Description,
      definitions: Record<string, JsonSchema>,
      level: number,
    ): void;
    protected _addNullTypeIfNullable(schema: JsonSchema, joiSpec: Description): void;
  }
  export = JoiOpenApiThreePointOneSchemaParser;
}
