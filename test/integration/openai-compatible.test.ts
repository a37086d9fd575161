import { expect } from "chai";
import OpenAI from "openai";
import { chatRunOf as runOf } from "../helpers/chat-runs";
import { EMBEDDING_MODEL_IDS } from "../../shared/llm/embedding-models";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { callsMentioning } from "../helpers/swarm";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { startImageServer, type ImageServer } from "../helpers/image-server";

/**
 * `POST /v1/chat/completions` and `GET /v1/models` driven by the official `openai` SDK: what the
 * model's call receives, the answer's shape and usage, and streaming in OpenAI's chunk format.
 */
describe("OpenAI-compatible endpoints (through the openai SDK)", () => {
  let h: Harness;
  let key: string;
  let client: OpenAI;
  let images: ImageServer;

  before(async () => {
    images = await startImageServer(); // image URLs are fetched by the worker: an allowed local server
    h = await harness();
    ({ key } = await h.newKey());
    client = new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
  });
  after(async () => images?.close());

  it("models.list() gives the models GET /v1/models/available lists and the embedding models, in OpenAI's shape; models.retrieve() one of them, NotFoundError for another", async () => {
    const swarms = await request(h.baseUrl, "GET", "/v1/models/available", { key });
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      expect(model).to.include({ object: "model" });
      expect(model.created).to.be.a("number");
      expect(model.owned_by).to.be.a("string").and.not.empty;
      ids.push(model.id);
    }
    // The Swarms catalogue's models, then the embedding models (never an agent's, so not in that catalogue).
    expect(ids)
      .to.deep.equal([...swarms.body.models, ...EMBEDDING_MODEL_IDS])
      .and.to.include("gpt-4.1");
    const one = await client.models.retrieve("gpt-4.1");
    expect(one).to.include({ id: "gpt-4.1", object: "model", owned_by: "openai" });
    const missing = await client.models.retrieve("no-such-model").catch((err: unknown) => err);
    expect(missing).to.be.instanceOf(OpenAI.NotFoundError);
    expect(missing).to.include({ status: 404, type: "invalid_request_error", code: "model_not_found", param: "model" });
  });

  it("chat.completions.create: the conversation and the options reach the model's call as written, in one chat_completion run", async () => {
    const marker = `chat-${Date.now()}`;
    const completion = await client.chat.completions.create({
      model: "gpt-4.1-mini",
      messages: [
        { role: "system", content: "You are a math tutor." },
        { role: "developer", content: "Answer briefly." },
        { role: "user", content: "What is the derivative of x^2?" },
        { role: "assistant", content: "2x." },
        { role: "user", content: [{ type: "text", text: `What about x^3? ${marker}` }] },
      ],
      temperature: 0.3,
      max_tokens: 999,
      max_completion_tokens: 123,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      seed: 7,
      user: "end-user-1",
      store: true, // an OpenAI option this endpoint ignores
    });
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(1);
    const [sent] = calls;
    expect(sent.messages).to.deep.equal([
      { role: "system", content: "You are a math tutor." },
      { role: "developer", content: "Answer briefly." },
      { role: "user", content: "What is the derivative of x^2?" },
      { role: "assistant", content: "2x." },
      { role: "user", content: [{ type: "text", text: `What about x^3? ${marker}` }] },
    ]);
    expect(sent).to.include({
      model: "gpt-4.1-mini",
      temperature: 0.3,
      max_tokens: 123,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      seed: 7,
      user: "end-user-1",
    });
    expect(sent).not.to.have.property("store");

    expect(completion.id).to.match(/^chatcmpl-[0-9a-f]{32}$/);
    expect(completion).to.include({ object: "chat.completion", model: "gpt-4.1-mini" });
    expect(completion.created).to.be.closeTo(Date.now() / 1_000, 60);
    expect(completion.choices).to.have.length(1);
    const [choice] = completion.choices;
    expect(choice).to.include({ index: 0, finish_reason: "stop" });
    expect(choice.message.role).to.equal("assistant");
    const run = await runOf(h, completion.id);
    expect(run.kind).to.equal("chat_completion");
    expect(choice.message.content).to.equal(run.output!.choices[0].message.content).and.not.empty;
    expect(completion.usage).to.deep.equal({
      prompt_tokens: run.usage!.input_tokens,
      completion_tokens: run.usage!.output_tokens,
      total_tokens: run.usage!.input_tokens + run.usage!.output_tokens,
    });
    expect(completion.usage!.prompt_tokens).to.be.above(0);
  });

  it("defaults: no system prompt added, the provider's own temperature, 8192 tokens per answer; max_loops above 1 is refused", async () => {
    const marker = `defaults-${Date.now()}`;
    await client.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: marker }] });
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(1);
    expect(calls[0].messages).to.deep.equal([{ role: "user", content: marker }]);
    expect(calls[0]).to.include({ max_tokens: 8192 });
    expect(calls[0]).not.to.have.property("temperature");
    const refused = await client.chat.completions
      // @ts-expect-error: the Swarms extension field is not in OpenAI's types
      .create({ model: "gpt-4.1", messages: [{ role: "user", content: `${marker}-loops` }], max_loops: 2 })
      .catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal("max_loops");
    expect(callsMentioning(h, `${marker}-loops`)).to.have.length(0);
  });

  it("accepts the key as x-api-key as well as Authorization: Bearer", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/chat/completions", {
      key,
      body: { model: "gpt-4.1", messages: [{ role: "user", content: `x-api-key ${Date.now()}` }] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.object).to.equal("chat.completion");
  });

  it("hands image parts to the model's call where they were (a URL as its data, a data URI as given)", async () => {
    const marker = `img-${Date.now()}`;
    await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: `${images.url}/a.png` } }] },
        { role: "assistant", content: "A cat." },
        {
          role: "user",
          content: [
            { type: "text", text: marker },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "low" } },
          ],
        },
      ],
    });
    const [sent] = callsMentioning(h, marker);
    expect(sent.messages).to.deep.equal([
      { role: "user", content: [{ type: "image_url", image_url: { url: dataUrl(PNG_1PX) } }] },
      { role: "assistant", content: "A cat." },
      {
        role: "user",
        content: [
          { type: "text", text: marker },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "low" } },
        ],
      },
    ]);
  });

  describe("stream: true", () => {
    const ask = (marker: string) => ({
      model: "gpt-4.1",
      messages: [
        { role: "system" as const, content: "You write haiku." },
        { role: "user" as const, content: `A haiku about ${marker}` },
      ],
    });

    it("streams chunks whose deltas make the answer: role first, content, finish_reason stop, then [DONE]; no usage chunk unless asked", async () => {
      const marker = `stream-${Date.now()}`;
      const stream = await client.chat.completions.create({ ...ask(marker), stream: true });
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);

      expect(chunks.length).to.be.at.least(3);
      const ids = new Set(chunks.map((c) => c.id));
      expect(ids.size).to.equal(1);
      expect([...ids][0]).to.match(/^chatcmpl-[0-9a-f]{32}$/);
      for (const c of chunks) {
        expect(c).to.include({ object: "chat.completion.chunk", model: "gpt-4.1" });
        expect(c.choices).to.have.length(1);
        expect(c).not.to.have.property("usage");
      }
      expect(chunks[0].choices[0].delta.role).to.equal("assistant");
      const last = chunks.at(-1)!;
      expect(last.choices[0]).to.deep.include({ delta: {}, finish_reason: "stop" });
      expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).to.equal(true);
      const streamed = chunks.map((c) => c.choices[0].delta.content ?? "").join("");

      // The same request unstreamed gets the same answer (the simulator answers a request by its content).
      const whole = await client.chat.completions.create(ask(marker));
      expect(streamed).to.equal(whole.choices[0].message.content).and.not.empty;
      const run = await runOf(h, [...ids][0]);
      expect(run.status).to.equal("succeeded");
      expect(run.output!.choices[0].message.content).to.equal(streamed);
    });

    it("with stream_options.include_usage ends with a chunk of empty choices and the run's usage, and usage: null before it", async () => {
      const marker = `usage-${Date.now()}`;
      const stream = await client.chat.completions.create({
        ...ask(marker),
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const last = chunks.at(-1)!;
      expect(last.choices).to.deep.equal([]);
      for (const c of chunks.slice(0, -1)) expect(c.usage).to.equal(null);
      expect(chunks.at(-2)!.choices[0].finish_reason).to.equal("stop");
      const run = await runOf(h, last.id);
      expect(last.usage).to.deep.equal({
        prompt_tokens: run.usage!.input_tokens,
        completion_tokens: run.usage!.output_tokens,
        total_tokens: run.usage!.total_tokens,
      });
      expect(last.usage!.completion_tokens).to.be.above(0);
    });

    it("writes OpenAI's bytes: bare data frames, each after its id line, and a literal data: [DONE]", async () => {
      const res = await fetch(`${h.baseUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ ...ask(`raw-${Date.now()}`), stream: true }),
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.match(/^text\/event-stream/);
      const text = await res.text();
      const frames = text.split("\n\n").filter((f) => f && !f.startsWith(":"));
      // Every frame is its id (where a client resumes) and one data line, nothing else.
      const jobId = JSON.parse(frames[0].split("\n")[1].slice(6)).id.replace(/^chatcmpl-/, "");
      expect(frames[0]).to.match(/^id: [0-9a-f-]{36}:meta\ndata: \{/);
      for (const f of frames.slice(1)) expect(f).to.match(/^id: [0-9a-f-]{36}:s?\d+\.\d+\ndata: \S/);
      const ids = frames.map((f) => f.split("\n")[0].slice(4));
      expect(new Set(ids).size, "ids are unique").to.equal(ids.length);
      expect(ids.every((id) => id.replaceAll("-", "").startsWith(jobId))).to.equal(true);
      expect(frames.at(-1)).to.match(/\ndata: \[DONE\]$/);
    });
  });
});
