import { randomUUID } from "node:crypto";
import { expect } from "chai";
import OpenAI from "openai";
import { harness, type Harness } from "../helpers/harness";
import { thrown } from "../helpers/openai-client";
import { rateLimitedApp } from "../helpers/rate-limited-app";
import { request } from "../helpers/http";
import { DocumentSchemas } from "../helpers/openapi";

const EMBEDDINGS = "/v1/embeddings";

/** The simulator's embeddings requests so far. */
const embeddingCalls = (h: Harness) => h.sim.embeddingJournal.length;

/**
 * `POST /v1/embeddings`'s refusals and bookkeeping: every refusal is a 4xx in OpenAI's body, made
 * before a run is stored or the provider called; an embedding model is no agent's model; an
 * Idempotency-Key makes one run; a rate-limited key is OpenAI's 429.
 */
describe("OpenAI-compatible embeddings: refusals, idempotency, rate limits", () => {
  let h: Harness;
  let key: string;
  let userId: string;
  let client: OpenAI;
  let schemas: DocumentSchemas;

  before(async () => {
    h = await harness();
    ({ key, userId } = await h.newKey());
    client = new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    schemas = new DocumentSchemas((await request(h.baseUrl, "GET", "/openapi.json")).body, "api");
  });

  const runCount = async (owner = userId) =>
    (await h.deps.ds.query(`SELECT count(*)::int AS n FROM runs WHERE user_id = $1`, [owner]))[0].n as number;

  /** Posts a raw body, checks its answer against the OpenAPI document, and returns OpenAI's error. */
  async function refused(body: unknown, status: number) {
    const res = await request(h.baseUrl, "POST", EMBEDDINGS, { key, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(schemas.responseProblems("POST", EMBEDDINGS, res)).to.deep.equal([]);
    expect(Object.keys(res.body)).to.deep.equal(["error"]);
    return res.body.error as { message: string; type: string; param: string | null; code: string };
  }

  it("refuses a chat model (400 naming model) and an unknown one (404 model_not_found) through the SDK, storing and sending nothing", async () => {
    const runs = await runCount();
    const calls = embeddingCalls(h);
    const chat = await thrown(client.embeddings.create({ model: "gpt-4.1", input: "bees" }));
    expect(chat).to.be.instanceOf(OpenAI.BadRequestError);
    expect(chat).to.include({ status: 400, type: "invalid_request_error", param: "model", code: "invalid_value" });
    expect(chat.message).to.match(/chat model, not an embedding model/);
    const unknown = await thrown(client.embeddings.create({ model: "no-such-embedder", input: "bees" }));
    expect(unknown).to.be.instanceOf(OpenAI.NotFoundError);
    expect(unknown).to.include({ status: 404, type: "invalid_request_error", param: "model", code: "model_not_found" });
    expect(await runCount()).to.equal(runs);
    expect(embeddingCalls(h)).to.equal(calls);
  });

  it("refuses input past OpenAI's bounds and of no accepted shape, naming the parameter, before anything is stored or sent", async () => {
    const runs = await runCount();
    const calls = embeddingCalls(h);
    const model = "text-embedding-3-small";
    // " bee" is one cl100k token: 8,193 of them are one over the bound of an input.
    const overlong = " bee".repeat(8_193);
    const nearBound = " bee".repeat(8_000);
    const cases: [unknown, number, string | null, RegExp][] = [
      [{ model, input: Array.from({ length: 2_049 }, (_, i) => `t${i}`) }, 400, "input", /2048/],
      [{ model, input: ["short", overlong] }, 400, "input[1]", /over 8192 tokens/],
      [{ model, input: Array.from({ length: 38 }, () => nearBound) }, 400, "input", /over 300000 tokens in all/],
      [{ model, input: "" }, 400, "input", /empty/],
      [{ model, input: [] }, 400, "input", /at least 1/],
      [{ model, input: ["a", ""] }, 400, "input[1]", /empty/],
      [{ model, input: [1, 200_019] }, 400, "input[1]", /less than or equal to 200018/],
      [{ model, input: [[1], [-1]] }, 400, "input[1][0]", /greater than or equal to 0/],
      [{ model, input: [1, "a"] }, 400, "input", /must be a string, a list of strings/],
      [{ model, input: { text: "a" } }, 400, "input", /must be a string, a list of strings/],
      [{ model }, 400, "input", /required/],
      [{ model, input: "a", dimensions: 0 }, 400, "dimensions", /greater than or equal to 1/],
      [{ model, input: "a", dimensions: 1_537 }, 400, "dimensions", /at most 1536/],
      [{ model: "text-embedding-ada-002", input: "a", dimensions: 256 }, 400, "dimensions", /does not take dimensions/],
      [{ model, input: "a", encoding_format: "int8" }, 400, "encoding_format", /float, base64/],
      [{ model, input: "a", stream: true }, 400, "stream", /not a field of OpenAI's embeddings request/],
    ];
    for (const [body, status, param, message] of cases) {
      const error = await refused(body, status);
      expect(error, JSON.stringify(body).slice(0, 120)).to.include({ type: "invalid_request_error", param });
      expect(error.message).to.match(message);
    }
    expect(await runCount()).to.equal(runs);
    expect(embeddingCalls(h)).to.equal(calls);
  });

  it("refuses an embedding model as an agent's model: an agent completion's and a swarm's agent's", async () => {
    const runs = await runCount();
    const agent = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "a", model_name: "text-embedding-3-small" }, task: "hi" },
    });
    expect(agent.status).to.equal(400);
    expect(agent.body).to.include({ code: "NOT_A_CHAT_MODEL" });
    expect(agent.body.detail).to.match(/agent_config\.model_name: 'text-embedding-3-small' is an embedding model/);
    const swarm = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: {
        swarm_type: "SequentialWorkflow",
        task: "hi",
        agents: [
          { agent_name: "a", model_name: "gpt-4.1" },
          { agent_name: "b", model_name: "text-embedding-3-large" },
        ],
      },
    });
    expect(swarm.status).to.equal(400);
    expect(swarm.body).to.include({ code: "NOT_A_CHAT_MODEL" });
    expect(await runCount()).to.equal(runs);
  });

  it("lists the embedding models in GET /v1/models (models.retrieve finds them) but not in the Swarms catalogue", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).to.include.members(["text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002"]);
    expect(await client.models.retrieve("text-embedding-3-large")).to.include({ owned_by: "openai" });
    const swarms = await request(h.baseUrl, "GET", "/v1/models/available", { key });
    expect(swarms.body.models).to.not.include("text-embedding-3-small");
  });

  it("answers an Idempotency-Key once: the replay is the same answer from the one run, with one provider call", async () => {
    const payer = await h.newKey();
    const paying = new OpenAI({ apiKey: payer.key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    const marker = `idem-${randomUUID()}`;
    const options = { headers: { "Idempotency-Key": randomUUID() } };
    const body = {
      model: "text-embedding-3-small",
      input: [marker, `${marker} again`],
      encoding_format: "float" as const,
    };
    const first = await paying.embeddings.create(body, options);
    const again = await paying.embeddings.create(body, options).withResponse();
    expect(again.data).to.deep.equal(first);
    expect(again.response.headers.get("idempotent-replayed")).to.equal("true");
    expect(await runCount(payer.userId)).to.equal(1);
    expect(
      h.sim.embeddingJournal.filter((e: any) => JSON.stringify(e.body?.input ?? "").includes(marker)),
    ).to.have.length(1);
    const other = await thrown(paying.embeddings.create({ ...body, input: "something else" }, options));
    expect(other).to.be.instanceOf(OpenAI.ConflictError);
    expect(other).to.include({ status: 409, code: "idempotency_key_reused" });
  });

  it("fails the run when the provider refuses the call: OpenAI's 500 naming the job, the failed run billed nothing", async () => {
    const payer = await h.newKey();
    const paying = new OpenAI({ apiKey: payer.key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    const marker = `provider-refuses-${randomUUID()}`;
    h.sim.script({ contains: marker, error: 400 });
    try {
      const err = await thrown(paying.embeddings.create({ model: "text-embedding-3-small", input: marker }));
      expect(err).to.be.instanceOf(OpenAI.InternalServerError);
      expect(err).to.include({ status: 500, type: "server_error", code: "llm_call_failed" });
      expect((err.error as { job_id?: string }).job_id).to.be.a("string");
      const [run] = await h.deps.ds.query(`SELECT status, usage, error FROM runs WHERE user_id = $1`, [payer.userId]);
      expect(run.status).to.equal("failed");
      expect(run.error.message).to.match(/HTTP 400/);
      expect(run.usage).to.deep.equal({ input_tokens: 0, total_tokens: 0, total_cost: 0 });
    } finally {
      h.sim.clearScripts();
    }
  });

  it("refuses past the rate limit with RateLimitError and Retry-After, storing no run for the refused request", async () => {
    const app = await rateLimitedApp(h, 1);
    try {
      const limitedKey = await h.newKey();
      const limited = new OpenAI({ apiKey: limitedKey.key, baseURL: `${app.url}/v1`, maxRetries: 0 });
      // The minute's one request is answered; the next is refused.
      const answered = await limited.embeddings.create({ model: "text-embedding-3-small", input: "bees" });
      expect(answered.data).to.have.length(1);
      const err = await thrown(limited.embeddings.create({ model: "text-embedding-3-small", input: "bees" }));
      expect(err).to.be.instanceOf(OpenAI.RateLimitError);
      expect(err).to.include({ status: 429, type: "rate_limit_error", code: "rate_limit_exceeded" });
      expect(Number(err.headers?.get("retry-after"))).to.be.within(1, 60);
      expect(await runCount(limitedKey.userId)).to.equal(1);
    } finally {
      await app.close();
    }
  });
});
