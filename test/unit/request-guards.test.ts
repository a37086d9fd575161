import { expect } from "chai";
import Joi from "joi";
import { findJsonHazard, isStorableText, MAX_JSON_DEPTH } from "../../api/http/json-hazards";
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

    it("otherwise validates as joi does, with defaults and unknown fields dropped", () => {
      const { value, error } = validateRequest(schema, { items: [{ name: "a", extra: 1 }], other: true });
      expect(error).to.equal(undefined);
      expect(value).to.deep.equal({ items: [{ name: "a" }] });
      expect(validateRequest(schema, { items: [{ name: 5 }] }).error?.details[0].type).to.equal("string.base");
    });
  });
});
