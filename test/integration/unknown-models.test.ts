import { expect } from "chai";
import OpenAI from "openai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { thrown } from "../helpers/openai-client";
import { uniqueMarker } from "../helpers/swarm";
import { swarmsClient } from "../helpers/swarms-sdk";
import { APIError as SwarmsApiError } from "../vendor/swarms-ts/src/core/error";

/** A typo of a real model: a gateway forwards any name, so only the provider (the simulator) can refuse it. */
const TYPO = "gtp-4o";

/**
 * A client's unknown model on every completion path: the provider refuses it (404
 * `model_not_found`), and Apiary answers the path's documented 4xx naming the model, never a 500,
 * with nothing billed for the refused call (the run's per-agent charge stays, as on any failed run).
 */
describe("unknown models: the provider's refusal answered as the client's mistake", () => {
  let h: Harness;
  let key: string;
  let client: OpenAI;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    client = new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
  });

  /** The run's billed LLM calls (the refused one is never billed). */
  async function billedCalls(runId: string): Promise<number> {
    const rows = await h.deps.ds.query("SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1", [runId]);
    return rows[0].n;
  }

  it("an agent run (swarms-ts) is a 400 UNKNOWN_MODEL naming the model, as its job read says, nothing billed", async () => {
    const sdk = swarmsClient(h.baseUrl, key);
    const err = await sdk.agent
      .run({ agent_config: { agent_name: "Typist", model_name: TYPO }, task: uniqueMarker("typo") })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).to.be.instanceOf(SwarmsApiError);
    const { status, error } = err as SwarmsApiError;
    expect(status).to.equal(400);
    const body = error as { code: string; detail: string; status_code: number; job_id: string };
    expect(body).to.include({ code: "UNKNOWN_MODEL", status_code: 400 });
    expect(body.detail).to.include(`Unknown model '${TYPO}'`);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${body.job_id}`, { key });
    expect(job.body).to.include({ status: "failed", code: "UNKNOWN_MODEL" });
    expect(await billedCalls(body.job_id)).to.equal(0);
    expect(body).to.have.nested.include({ "usage.input_tokens": 0, "usage.output_tokens": 0 });
  });

  it("a swarm run is a 400 UNKNOWN_MODEL naming the model and the agent on it", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: {
        swarm_type: "SequentialWorkflow",
        task: uniqueMarker("swarm-typo"),
        agents: [
          { agent_name: "Writer", model_name: "gpt-4o-mini" },
          { agent_name: "Editor", model_name: TYPO },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body).to.include({ code: "UNKNOWN_MODEL", status_code: 400, agent: "Editor" });
    expect(res.body.detail).to.include(`Unknown model '${TYPO}'`);
  });

  it("batch items: an agent item's slot says UNKNOWN_MODEL, a swarm item's names the model; the batch answers 200", async () => {
    const agents = await request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
      key,
      body: [
        { agent_config: { agent_name: "Fine", model_name: "gpt-4o-mini" }, task: uniqueMarker("ok") },
        { agent_config: { agent_name: "Typist", model_name: TYPO }, task: uniqueMarker("typo") },
      ],
    });
    expect(agents.status, JSON.stringify(agents.body)).to.equal(200);
    expect(agents.body.results[0]).to.include({ success: true });
    expect(agents.body.results[1]).to.include({ success: false, code: "UNKNOWN_MODEL" });
    const swarms = await request(h.baseUrl, "POST", "/v1/swarm/batch/completions", {
      key,
      body: [{ swarm_type: "SequentialWorkflow", agents: [{ agent_name: "Typist", model_name: TYPO }], task: "t" }],
    });
    expect(swarms.status, JSON.stringify(swarms.body)).to.equal(200);
    expect(swarms.body[0]).to.include({ status: "error" });
    expect(swarms.body[0].detail).to.include(`Unknown model '${TYPO}'`);
  });

  it("a chat completion (openai SDK) is OpenAI's 404 model_not_found naming the model", async () => {
    const err = await thrown(
      client.chat.completions.create({ model: TYPO, messages: [{ role: "user", content: "hi" }] }),
    );
    expect(err).to.be.instanceOf(OpenAI.NotFoundError);
    expect(err).to.include({ status: 404, type: "invalid_request_error", code: "model_not_found", param: "model" });
    expect(err.message).to.include(TYPO);
  });

  it("a streamed chat completion ends in an error naming the model", async () => {
    const stream = await client.chat.completions.create({
      model: TYPO,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const err = await thrown(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    );
    expect(err.message).to.include(`Unknown model '${TYPO}'`);
  });

  it("a response (openai SDK) is OpenAI's 404 model_not_found naming the model", async () => {
    const err = await thrown(client.responses.create({ model: TYPO, input: "hi" }));
    expect(err).to.be.instanceOf(OpenAI.NotFoundError);
    expect(err).to.include({ code: "model_not_found", param: "model" });
    expect(err.message).to.include(TYPO);
  });

  it("an embeddings request is OpenAI's 404 model_not_found naming the model, before any call", async () => {
    const before = h.sim.embeddingJournal.length;
    const err = await thrown(client.embeddings.create({ model: "text-embeding-3-small", input: "hi" }));
    expect(err).to.be.instanceOf(OpenAI.NotFoundError);
    expect(err).to.include({ code: "model_not_found", param: "model" });
    expect(err.message).to.include("text-embeding-3-small");
    expect(h.sim.embeddingJournal.length).to.equal(before);
  });
});
