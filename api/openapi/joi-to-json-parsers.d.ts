/** The OpenAPI 3.1 parser class of `joi-to-json` (the package types only its `parse` function). */
declare module "joi-to-json/lib/parsers/open-api-3.1" {
  type JsonSchema = Record<string, any>;
  class JoiOpenApiThreePointOneSchemaParser {
    constructor(options?: Record<string, unknown>);
    parse(description: Record<string, any>, definitions?: Record<string, JsonSchema>, level?: number): JsonSchema;
    protected _setObjectProperties(
      schema: JsonSchema,
      joiSpec: Record<string, any>,
      definitions: Record<string, JsonSchema>,
      level: number,
    ): void;
    protected _setAnyProperties(
      schema: JsonSchema,
      joiSpec: Record<string, any>,
      definitions: Record<string, JsonSchema>,
      level: number,
    ): void;
    protected _addNullTypeIfNullable(schema: JsonSchema, joiSpec: Record<string, any>): void;
  }
  export = JoiOpenApiThreePointOneSchemaParser;
}
