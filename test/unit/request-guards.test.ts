import { expect } from "chai";
import Joi from "joi";
import { findJsonHazard, isStorableText, MAX_JSON_DEPTH } from "../../shared/json/json-hazards";
import { agentCompletionSchema } from "../../api/schemas/agent-request.schema";
import { validateRequest } from "../../api/schemas/validate-request";

const nested = (levels: number) => JSON.parse("[".repeat(levels) + "]".repeat(levels));

describe("request guards", () => {
  describe("findJsonHazard", () => {
    it("allows nesting up to the limit and refuses one level more, without recursing itself", () => {
      expect(findJsonHazard(nested(MAX_JSON_DEPTH))).to.equal(null);
      expect(findJsonHazard(nested(MAX_JSON_DEPTH + 1))).to.deep.equal({ kind: "depth" });
      expect(findJsonHazard(nested(100_000))).to.deep.equal({ kind: "depth" });
    });

    it("locates a NUL character or an unpaired surrogate in a value or a key", () => {
      expect(findJsonHazard({ a: [{ b: "ok" }, { c: "x\u0000" }] })).to.deep.equal({
        kind: "text",
        path: ["a", 1, "c"],
        inKey: false,
      });
      expect(findJsonHazard({ a: { "k\ud800": 1 } })).to.deep.equal({
        kind: "text",
        path: ["a", "k\ud800"],
        inKey: true,
      });
      expect(findJsonHazard(JSON.parse('{"t":"\\udc00"}'))).to.deep.equal({ kind: "text", path: ["t"], inKey: false });
      expect(findJsonHazard({ t: "bees 🐝, \u202e, \ufffd" })).to.equal(null);
    });

    it("looks at a 4 MB body of nested arrays in linear time and memory, and still names a deep hazard's path", () => {
      // 2 million numbers 63 levels down: a copy of the path per value took 10 s and 2.3 GB.
      const body = JSON.parse(`${"[".repeat(63)}${Array(2_000_000).fill("0").join(",")}${"]".repeat(63)}`);
      const started = performance.now();
      const rssBefore = process.memoryUsage().rss;
      expect(findJsonHazard(body)).to.equal(null);
      expect(performance.now() - started, "ms").to.be.below(1_000);
      expect(process.memoryUsage().rss - rssBefore, "bytes added").to.be.below(200_000_000);
      const deep = JSON.parse(`${"[".repeat(60)}["ok", {"k": "x\\u0000"}]${"]".repeat(60)}`);
      expect(findJsonHazard(deep)).to.deep.equal({ kind: "text", path: [...Array(60).fill(0), 1, "k"], inKey: false });
    });

    it("isStorableText accepts paired surrogates and refuses lone ones", () => {
      expect(isStorableText("🐝")).to.equal(true);
      expect(isStorableText("\ud83d")).to.equal(false);
      expect(isStorableText("a\u0000b")).to.equal(false);
    });
  });

  describe("validateRequest", () => {
    const item = Joi.object({ name: Joi.string().required() });
    const schema = Joi.object({
      items: Joi.array().items(item).max(3),
      inner: Joi.object({ tags: Joi.array().items(Joi.string()).max(2) }),
    });

    it("refuses an array over its max before validating its items, naming where it is", () => {
      const { error } = validateRequest(schema, {
        items: Array.from({ length: 50_000 }, () => ({ name: 5 })),
        inner: { tags: ["a", "b", "c"] },
      });
      expect(error?.details.map((d) => [d.path, d.type, d.message])).to.deep.equal([
        [["items"], "array.max", '"items" must contain less than or equal to 3 items'],
        [["inner", "tags"], "array.max", '"inner.tags" must contain less than or equal to 2 items'],
      ]);
    });

    it("follows links: a handoff's own 32,000 handoffs or tools are refused at once, not compared pair by pair", () => {
      const tool = (i: number) => ({ type: "function", function: { name: `t${i}`, parameters: { type: "object" } } });
      const bodies = [
        {
          agent_config: {
            handoffs: [
              { agent_name: "A", handoffs: Array.from({ length: 32_000 }, (_, i) => ({ agent_name: `h${i}` })) },
            ],
          },
          task: "t",
        },
        {
          agent_config: {
            handoffs: [{ agent_name: "A", tools_list_dictionary: Array.from({ length: 32_000 }, (_, i) => tool(i)) }],
          },
          task: "t",
        },
      ];
      for (const body of bodies) {
        const started = performance.now();
        const { error } = validateRequest(agentCompletionSchema, body);
        expect(performance.now() - started, "ms").to.be.below(500);
        expect(error?.details.map((d) => d.type)).to.deep.equal(["array.max"]);
        expect(error?.details[0].path.slice(0, 3)).to.deep.equal(["agent_config", "handoffs", 0]);
      }
    });

    it("otherwise validates as joi does, with defaults and unknown fields dropped", () => {
      const { value, error } = validateRequest(schema, { items: [{ name: "a", extra: 1 }], other: true });
      expect(error).to.equal(undefined);
      expect(value).to.deep.equal({ items: [{ name: "a" }] });
      expect(validateRequest(schema, { items: [{ name: 5 }] }).error?.details[0].type).to.equal("string.base");
    });
  });
});
