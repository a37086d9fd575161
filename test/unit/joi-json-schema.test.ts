import { expect } from "chai";
import Joi from "joi";
import { joiToJsonSchema, type JsonSchema } from "../../api/openapi/joi-json-schema";
import { agentSpecSchema } from "../../api/schemas/agent-spec.schema";
import { DocumentSchemas } from "../helpers/openapi";

let documents = 0;

/** Converts a joi schema and returns it with a 2020-12 validator over its components. */
function convert(schema: Joi.Schema): {
  json: JsonSchema;
  components: Record<string, JsonSchema>;
  schemas: DocumentSchemas;
} {
  const components: Record<string, JsonSchema> = {};
  const json = joiToJsonSchema(schema, components);
  return {
    json,
    components,
    schemas: new DocumentSchemas({ paths: {}, components: { schemas: components } }, `unit-${++documents}`),
  };
}

/** The JSON Schema accepts exactly the samples joi accepts (joi without type conversion: JSON bodies are typed). */
function expectSameVerdicts(schema: Joi.Schema, samples: unknown[]): JsonSchema {
  const { json, schemas } = convert(schema);
  for (const sample of samples) {
    const joiAccepts = !schema.validate(sample, { convert: false }).error;
    const jsonAccepts = schemas.errors(json, sample).length === 0;
    expect(jsonAccepts, `${JSON.stringify(sample)} against ${JSON.stringify(json)}`).to.equal(joiAccepts);
  }
  return json;
}

describe("joi → JSON Schema 2020-12 for the OpenAPI documents", () => {
  it("keeps enums, defaults, patterns, bounds and integer types", () => {
    const json = expectSameVerdicts(
      Joi.object({
        tier: Joi.string().valid("standard", "flex").allow(null).default("standard"),
        code: Joi.string().pattern(/^[A-Z]{2,4}$/),
        loops: Joi.number().integer().min(1).max(5),
      }),
      [
        {},
        { tier: "flex" },
        { tier: null },
        { tier: "gold" },
        { code: "AB" },
        { code: "ab" },
        { loops: 5 },
        { loops: 6 },
        { loops: 1.5 },
      ],
    );
    expect(json.properties?.tier).to.deep.include({ default: "standard", enum: ["standard", "flex", null] });
  });

  it("closes objects unless they allow unknown keys", () => {
    expectSameVerdicts(Joi.object({ a: Joi.string() }), [{ a: "x" }, { a: "x", b: 1 }]);
    expectSameVerdicts(Joi.object({ a: Joi.string() }).unknown(true), [{ a: "x" }, { a: "x", b: 1 }, { a: 1 }]);
  });

  it("makes a nullable alternatives accept null and each alternative (not only null)", () => {
    const json = expectSameVerdicts(
      Joi.alternatives(Joi.array().items(Joi.string()), Joi.object().unknown(true)).allow(null),
      [null, [], ["a"], [1], {}, { k: 1 }, "x", 5],
    );
    expect(json.anyOf).to.have.length(3);
  });

  it("describes objects keyed by any string (`pattern(Joi.string(), …)`) and by a regex, without junk properties", () => {
    const headers = expectSameVerdicts(Joi.object().pattern(Joi.string(), Joi.string()), [{}, { a: "x" }, { a: 1 }]);
    expect(headers.additionalProperties).to.deep.equal({ type: "string" });
    const extensions = expectSameVerdicts(Joi.object().pattern(/^x-/, Joi.number()), [
      {},
      { "x-a": 1 },
      { "x-a": "s" },
      { b: 1 },
    ]);
    expect(extensions.properties).to.deep.equal({});
  });

  it("turns Joi.any() into the empty schema", () => {
    expect(expectSameVerdicts(Joi.any(), [null, 1, "x", {}, []])).to.deep.equal({});
  });

  it("turns `.when(sibling, {is, then, otherwise})` into an object-level if/then/else", () => {
    const json = expectSameVerdicts(
      Joi.object({
        is_free: Joi.boolean(),
        price_usd: Joi.number().min(0).when("is_free", { is: false, then: Joi.required(), otherwise: Joi.forbidden() }),
        mode: Joi.string(),
        size: Joi.when("mode", { is: "fixed", then: Joi.number().integer().required() }),
      }),
      [
        {},
        { is_free: false, price_usd: 2 },
        { is_free: false },
        { is_free: true },
        { is_free: true, price_usd: 1 },
        { price_usd: 1 },
        { is_free: false, price_usd: -1 },
        { mode: "fixed", size: 3 },
        { mode: "fixed" },
        { mode: "fixed", size: "big" },
        { mode: "open" },
      ],
    );
    expect(json.allOf).to.have.length(2);
  });

  it("turns conditional alternatives into if/then/else", () => {
    expectSameVerdicts(
      Joi.alternatives().conditional(Joi.object({ kind: Joi.valid("url") }).unknown(), {
        then: Joi.object({ kind: Joi.string(), url: Joi.string().uri().required() }),
        otherwise: Joi.object({ kind: Joi.string(), data: Joi.string().required() }),
      }),
      [
        { kind: "url", url: "https://example.com/a.png" },
        { kind: "url", data: "abc" },
        { kind: "file", data: "abc" },
        { kind: "file", url: "https://x.io" },
      ],
    );
  });

  it("names schemas with a joi id as components, nullable only where used so", () => {
    const usage = Joi.object({ total: Joi.number().required() }).id("UnitUsage");
    const components: Record<string, JsonSchema> = {};
    const required = joiToJsonSchema(Joi.object({ usage: usage.required() }), components);
    const optional = joiToJsonSchema(Joi.object({ usage: usage.allow(null) }), components);
    expect(required.properties?.usage).to.deep.equal({ $ref: "#/components/schemas/UnitUsage" });
    expect(optional.properties?.usage).to.deep.equal({
      anyOf: [{ $ref: "#/components/schemas/UnitUsage" }, { type: "null" }],
    });
    expect(components.UnitUsage.type).to.equal("object");
    expectSameVerdicts(Joi.object({ usage: usage.allow(null) }), [
      { usage: null },
      { usage: { total: 1 } },
      { usage: {} },
    ]);
  });

  it("resolves AgentSpec's recursive handoffs and keeps its defaults", () => {
    const json = expectSameVerdicts(agentSpecSchema, [
      { agent_name: "A", handoffs: [{ agent_name: "B", max_loops: 2 }] },
      { agent_name: "A", handoffs: [{ agent_name: "B", max_loops: 0 }] },
      { reasoning_effort: "extreme" },
      { mcp_config: { url: "http://127.0.0.1/mcp", headers: { Authorization: "Bearer x" } } },
      { mcp_config: { url: "http://127.0.0.1/mcp", headers: { n: 1 } } },
    ]);
    expect(json).to.deep.equal({ $ref: "#/components/schemas/AgentSpec" });
    const { components } = convert(agentSpecSchema);
    expect(components.AgentSpec.properties?.handoffs.anyOf ?? components.AgentSpec.properties?.handoffs.items).to.exist;
    expect(components.AgentSpec.properties?.max_tokens.default).to.equal(8192);
  });

  it("refuses two different schemas under one id", () => {
    const components: Record<string, JsonSchema> = {};
    joiToJsonSchema(Joi.object({ a: Joi.string() }).id("Clash"), components);
    expect(() => joiToJsonSchema(Joi.object({ b: Joi.string() }).id("Clash"), components)).to.throw(/Clash/);
  });
});
