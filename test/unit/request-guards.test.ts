import { expect } from "chai";
import Joi from "joi";
import { findJsonHazard, isStorableText, MAX_JSON_DEPTH } from "../../shared/json/json-hazards";
import { agentCompletionSchema } from "../../api/schemas/agent-request.schema";
import { chatCompletionSchema } from "../../api/schemas/chat-completion.schema";
import { swarmRequestSchema } from "../../api/schemas/swarm-request.schema";
import { MAX_VALUES_ALL_PROBLEMS, validateRequest } from "../../api/schemas/validate-request";
import { MAX_OBJECT_KEYS } from "../../api/schemas/value-bounds";
import { SHOWN_ISSUES, toIssues } from "../../api/http/validate";

/** `{k0: value, k1: value, …}` with `n` keys. */
const keys = (n: number, value: unknown = 0, prefix = "k") =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, value]));

/** The problems of validating `body`, and how long it took. */
function timed(schema: Joi.Schema, body: unknown) {
  const started = performance.now();
  const { error } = validateRequest(schema, body);
  return { ms: performance.now() - started, problems: error?.details.map((d) => [d.path.join("."), d.type]) };
}

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
      expect(validateRequest(schema, null).error?.details[0].type).to.equal("object.base");
    });

    it("refuses an object over its max before validating its keys: 600,000 metadata keys", () => {
      const { ms, problems } = timed(agentCompletionSchema, {
        agent_config: { llm_args: { metadata: keys(600_000, "v") } },
        task: "t",
      });
      expect(problems).to.deep.equal([["agent_config.llm_args.metadata", "object.max"]]);
      expect(ms, "ms").to.be.below(600);
    });

    it("refuses whole an object refusing unknown keys that has far more than it declares: llm_args, a chat body", () => {
      const llmArgs = timed(agentCompletionSchema, { agent_config: { llm_args: keys(150_000) }, task: "t" });
      expect(llmArgs.problems).to.deep.equal([["agent_config.llm_args", "object.unknown"]]);
      expect(llmArgs.ms, "ms").to.be.below(400);
      const chat = timed(chatCompletionSchema, {
        model: "gpt-4.1",
        messages: [{ role: "user", content: "hi" }],
        ...keys(150_000),
      });
      expect(chat.problems).to.deep.equal([["", "object.unknown"]]);
      expect(chat.ms, "ms").to.be.below(400);
      // A few unknown keys are still named one by one.
      expect(timed(agentCompletionSchema, { agent_config: { llm_args: keys(3) }, task: "t" }).problems).to.deep.equal(
        ["k0", "k1", "k2"].map((k) => [`agent_config.llm_args.${k}`, "object.unknown"]),
      );
    });

    it(`refuses any object over ${MAX_OBJECT_KEYS} keys, described or not, and takes one at the bound`, () => {
      const body = { agent_config: {}, task: "t", ...keys(1_000_000) };
      const million = timed(agentCompletionSchema, body);
      expect(million.problems).to.deep.equal([["", "object.max"]]);
      expect(million.ms, "ms").to.be.below(900);
      const schema = { type: "object", properties: keys(MAX_OBJECT_KEYS + 1, { type: "string" }) };
      const tool = (parameters: unknown) => ({
        agent_config: { tools_list_dictionary: [{ type: "function", function: { name: "f", parameters } }] },
        task: "t",
      });
      expect(timed(agentCompletionSchema, tool(schema)).problems).to.deep.equal([
        ["agent_config.tools_list_dictionary.0.function.parameters.properties", "object.max"],
      ]);
      const atBound = { type: "object", properties: keys(MAX_OBJECT_KEYS - 1, { type: "string" }) };
      expect(timed(agentCompletionSchema, tool(atBound)).problems).to.equal(undefined);
    });

    it("takes the largest max among alternatives' and when's branches: 3M stop sequences, 350,000 content parts", () => {
      const stop = timed(agentCompletionSchema, {
        agent_config: { llm_args: { stop: Array(3_000_000).fill("x") } },
        task: "t",
      });
      expect(stop.problems).to.deep.equal([["agent_config.llm_args.stop", "array.max"]]);
      expect(stop.ms, "ms").to.be.below(100);
      const parts = Array(350_000).fill({ type: "text", text: "a" });
      const chat = timed(chatCompletionSchema, { model: "gpt-4.1", messages: [{ role: "user", content: parts }] });
      expect(chat.problems).to.deep.equal([["messages.0.content", "array.max"]]);
      expect(chat.ms, "ms").to.be.below(100);
      const branches = Joi.object({
        kind: Joi.string(),
        list: Joi.when("kind", { is: "long", then: Joi.array().max(5), otherwise: Joi.array().max(2) }),
        open: Joi.when("kind", { is: "long", then: Joi.array().max(1) }),
      });
      expect(timed(branches, { kind: "short", list: [1, 2, 3, 4, 5, 6] }).problems).to.deep.equal([
        ["list", "array.max"],
      ]);
      expect(timed(branches, { kind: "long", list: [1, 2, 3, 4, 5] }).problems).to.equal(undefined);
      // Where a when has no otherwise the base alone may apply, which bounds nothing: joi judges `open`.
      expect(timed(branches, { kind: "short", open: [1, 2, 3] }).problems).to.equal(undefined);
      expect(timed(branches, { kind: "long", open: [1, 2, 3] }).problems).to.deep.equal([["open", "array.max"]]);
    });

    it(`lists only the first problem of a body of more than ${MAX_VALUES_ALL_PROBLEMS} values, so joi never collects 200,000`, () => {
      // 20 agents' 10,000 wrong logit_bias keys: joi overflowed its stack collecting them (a 500).
      const agents = Array.from({ length: 20 }, (_, i) => ({
        agent_name: `a${i}`,
        llm_args: { logit_bias: keys(10_000, 0, "x") },
      }));
      const { ms, problems } = timed(swarmRequestSchema, { task: "t", agents });
      expect(problems).to.deep.equal([["agents.0.llm_args.logit_bias.x0", "object.unknown"]]);
      expect(ms, "ms").to.be.below(900);
    });
  });

  describe("toIssues", () => {
    it(`names ${SHOWN_ISSUES} problems and counts the rest, so no answer grows with its request`, () => {
      const { error } = Joi.object({ a: Joi.object().pattern(/^n/, Joi.number()).unknown(false) }).validate(
        { a: keys(500) },
        { abortEarly: false },
      );
      const issues = toIssues(error!);
      expect(issues).to.have.length(SHOWN_ISSUES + 1);
      expect(issues[0]).to.deep.equal({
        loc: ["body", "a", "k0"],
        msg: "'a.k0' is not allowed",
        type: "object.unknown",
      });
      expect(issues[SHOWN_ISSUES]).to.deep.equal({
        loc: ["body"],
        msg: "and 480 more problems",
        type: "too_many_problems",
      });
    });
  });
});
