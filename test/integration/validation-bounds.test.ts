import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

/** `{k0: value, k1: value, …}` with `n` keys. */
const keys = (n: number, value: unknown = 0, prefix = "k") =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, value]));

/** Most bytes an answer refusing a hostile body may take: it names at most 20 problems. */
const SMALL_ANSWER = 8_000;
/**
 * Most milliseconds a refusal may take over HTTP, sending, reading and parsing up to 9 MB included
 * (about 1 s of it, more on a loaded machine); the old validation alone took 4 to 8 s. The unit
 * tests (request-guards) hold the validation's own time to tighter bounds.
 */
const FAST = 6_000;

/**
 * Bodies with huge objects and arrays where the schema allows few keys or items are refused fast,
 * with a small 4xx: joi validated every key before counting them (1.8 s and a 16 MB answer for
 * 50,000 unknown llm_args keys, a 500 from 150,000 as it ran out of stack, 8.2 s for 600,000
 * metadata keys, 2.1 s for 3M stop sequences).
 */
describe("validation of bodies with many keys or items stays fast and small", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });

  /** Posts `body`, answering the response, its size in bytes and how long it took. */
  async function post(path: string, body: unknown) {
    const raw = JSON.stringify(body);
    const started = performance.now();
    const res = await request(h.baseUrl, "POST", path, { key, raw, headers: { "content-type": "application/json" } });
    return { res, ms: performance.now() - started, bytes: JSON.stringify(res.body).length };
  }

  const agent = (llmArgs: unknown) => ({ agent_config: { agent_name: "A", llm_args: llmArgs }, task: "t" });

  it("refuses 150,000 unknown llm_args keys, 600,000 metadata keys and 3M stop sequences with a small 422", async () => {
    const cases = [
      { body: agent(keys(150_000)), loc: ["body", "agent_config", "llm_args"], type: "object.unknown" },
      {
        body: agent({ metadata: keys(600_000, "") }),
        loc: ["body", "agent_config", "llm_args", "metadata"],
        type: "object.max",
      },
      {
        body: agent({ stop: Array(3_000_000).fill("") }),
        loc: ["body", "agent_config", "llm_args", "stop"],
        type: "array.max",
      },
    ];
    for (const { body, loc, type } of cases) {
      const { res, ms, bytes } = await post("/v1/agent/completions", body);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(422);
      expect(res.body.detail.map((d: { loc: unknown; type: string }) => [d.loc, d.type])).to.deep.equal([[loc, type]]);
      expect(bytes, "answer bytes").to.be.below(SMALL_ANSWER);
      expect(ms, `ms for ${type}`).to.be.below(FAST);
    }
  });

  it("names 20 problems and counts the rest, and never collects 200,000 (20 agents' wrong logit_bias keys)", async () => {
    const few = await post("/v1/agent/completions", agent(keys(60)));
    expect(few.res.status).to.equal(422);
    expect(few.res.body.detail).to.have.length(21);
    expect(few.res.body.detail[20]).to.deep.equal({
      loc: ["body"],
      msg: "and 40 more problems",
      type: "too_many_problems",
    });
    const agents = Array.from({ length: 20 }, (_, i) => ({
      agent_name: `a${i}`,
      llm_args: { logit_bias: keys(10_000, 0, "x") },
    }));
    const many = await post("/v1/swarm/completions", { swarm_type: "SequentialWorkflow", task: "t", agents });
    expect(many.res.status, JSON.stringify(many.res.body).slice(0, 300)).to.equal(422);
    expect(many.bytes, "answer bytes").to.be.below(SMALL_ANSWER);
    expect(many.res.body.detail.map((d: { loc: unknown }) => d.loc)).to.deep.equal([
      ["body", "agents", 0, "llm_args", "logit_bias", "x0"],
    ]);
  });

  it("chat completions: 150,000 unknown fields are a small OpenAI-shaped 400, 20 of them named at most", async () => {
    const messages = [{ role: "user", content: "hi" }];
    const { res, ms, bytes } = await post("/v1/chat/completions", { model: "gpt-4.1", messages, ...keys(150_000) });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ type: "invalid_request_error", code: "invalid_value", param: null });
    expect(res.body.error.message).to.match(/has 150002 keys, far more than the \d+ it takes/);
    expect(bytes, "answer bytes").to.be.below(SMALL_ANSWER);
    expect(ms, "ms").to.be.below(FAST);
    const few = await post("/v1/chat/completions", { model: "gpt-4.1", messages, ...keys(30) });
    expect(few.res.status).to.equal(400);
    expect(few.res.body.error.param).to.equal("k0");
    expect(few.res.body.error.message).to.match(/; and 10 more problems$/);
  });
});
