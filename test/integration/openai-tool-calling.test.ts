import { expect } from "chai";
import OpenAI from "openai";
import { chatRunOf as runOf } from "../helpers/chat-runs";
import { harness, type Harness } from "../helpers/harness";
import { SseReader } from "../helpers/sse";
import { request } from "../helpers/http";
import { callsMentioning } from "../helpers/swarm";

const weather: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "The weather in a city",
    parameters: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
  },
};
const time: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
  type: "function",
  function: { name: "get_time", parameters: { type: "object", properties: { zone: { type: "string" } } } },
};

/**
 * Tool calling, several answers and log probabilities on `POST /v1/chat/completions`, driven by
 * the official `openai` SDK as an agent framework drives a model: the model's tool calls are the
 * answer, the client runs them and sends the results back, and every call is a billed run.
 */
describe("OpenAI tool calling, n and logprobs (through the openai SDK)", () => {
  let h: Harness;
  let key: string;
  let userId: string;
  let client: OpenAI;

  before(async () => {
    h = await harness();
    ({ key, userId } = await h.newKey());
    client = new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1` });
  });

  it("a tool-call loop: the model's calls come back with ids, the client's results go in, the answer uses them", async () => {
    const marker = `tools-${Date.now()}`;
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "user", content: `Weather and time in Paris? ${marker}` },
    ];
    const first = await client.chat.completions.create({ model: "gpt-4.1", messages, tools: [weather, time] });
    const [choice] = first.choices;
    expect(choice.finish_reason).to.equal("tool_calls");
    expect(choice.message.content).to.equal(null);
    const calls = choice.message.tool_calls!.filter((c) => c.type === "function");
    expect(calls.map((c) => c.function.name)).to.deep.equal(["get_weather", "get_time"]);
    for (const call of calls) {
      expect(call.id).to.match(/^call_/);
      expect(JSON.parse(call.function.arguments)).to.be.an("object");
    }
    expect(JSON.parse(calls[0].function.arguments).city).to.be.a("string");
    // The provider got the client's tools exactly as sent.
    const [sent] = callsMentioning(h, marker);
    expect(sent.tools).to.deep.equal([weather, time]);

    messages.push(choice.message);
    for (const call of calls)
      messages.push({ role: "tool", tool_call_id: call.id, content: `${call.function.name}: ok` });
    const second = await client.chat.completions.create({ model: "gpt-4.1", messages, tools: [weather, time] });
    expect(second.choices[0].finish_reason).to.equal("stop");
    expect(second.choices[0].message.content).to.match(/Using 2 tool results/);
    const sentBack = callsMentioning(h, marker)[1];
    expect(sentBack.messages.slice(1)).to.deep.equal([
      { role: "assistant", content: null, tool_calls: calls },
      { role: "tool", tool_call_id: calls[0].id, content: "get_weather: ok" },
      { role: "tool", tool_call_id: calls[1].id, content: "get_time: ok" },
    ]);
    // Each call is one run, billed: its stored answer is what the client got.
    const run = await runOf(h, first.id);
    expect(run).to.include({ kind: "chat_completion", status: "succeeded" });
    expect(run.output!.choices[0].message.tool_calls).to.deep.equal(calls);
    expect(run.usage!.output_tokens).to.equal(first.usage!.completion_tokens).and.above(0);
  });

  it("tool_choice forces one named function; parallel_tool_calls false asks for one call; both reach the model", async () => {
    const marker = `choice-${Date.now()}`;
    const forced = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: marker }],
      tools: [weather, time],
      tool_choice: { type: "function", function: { name: "get_time" } },
    });
    expect(forced.choices[0].message.tool_calls!.map((c) => c.type === "function" && c.function.name)).to.deep.equal([
      "get_time",
    ]);
    const single = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: `${marker} single` }],
      tools: [weather, time],
      parallel_tool_calls: false,
    });
    expect(single.choices[0].message.tool_calls).to.have.length(1);
    const [sentForced, sentSingle] = callsMentioning(h, marker);
    expect(sentForced.tool_choice).to.deep.equal({ type: "function", function: { name: "get_time" } });
    expect(sentSingle.parallel_tool_calls).to.equal(false);
  });

  it("streams tool calls as OpenAI's deltas: the SDK's stream helper rebuilds them, and runTools runs the loop", async () => {
    const marker = `stream-tools-${Date.now()}`;
    const stream = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: marker }],
      tools: [weather],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const pieces = chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []));
    expect(pieces[0]).to.deep.include({ index: 0, type: "function" });
    expect(pieces[0].id).to.match(/^call_/);
    expect(pieces[0].function!.name).to.equal("get_weather");
    const args = pieces.map((p) => p.function?.arguments ?? "").join("");
    expect(JSON.parse(args)).to.have.property("city");
    const finish = chunks.flatMap((c) => c.choices).find((ch) => ch.finish_reason);
    expect(finish!.finish_reason).to.equal("tool_calls");
    expect(chunks.at(-1)!.usage!.completion_tokens).to.be.above(0);

    // The SDK's own helpers: a streamed completion rebuilt, and its tool runner's whole loop.
    const helper = client.chat.completions.stream({
      model: "gpt-4.1",
      messages: [{ role: "user", content: `${marker} helper` }],
      tools: [weather],
    });
    const rebuilt = await helper.finalChatCompletion();
    const call = rebuilt.choices[0].message.tool_calls![0];
    expect(call.type === "function" && call.function.name).to.equal("get_weather");

    const seen: string[] = [];
    const runner = client.chat.completions.runTools({
      model: "gpt-4.1",
      messages: [{ role: "user", content: `${marker} runner` }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "The weather in a city",
            parameters: weather.function.parameters!,
            parse: JSON.parse,
            function: (input: { city: string }) => {
              seen.push(input.city);
              return `Sunny in ${input.city}`;
            },
          },
        },
      ],
    });
    const answer = await runner.finalContent();
    expect(seen).to.have.length(1);
    expect(answer).to.match(/Using 1 tool result/);
  });

  it("n answers, each billed, and log probabilities when asked", async () => {
    const marker = `n-${Date.now()}`;
    const completion = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: marker }],
      n: 3,
      logprobs: true,
      top_logprobs: 2,
    });
    expect(completion.choices.map((c) => c.index)).to.deep.equal([0, 1, 2]);
    expect(new Set(completion.choices.map((c) => c.message.content)).size).to.equal(3);
    for (const choice of completion.choices) {
      const tokens = choice.logprobs!.content!;
      expect(tokens.map((t) => t.token).join("")).to.equal(choice.message.content);
      expect(tokens[0].top_logprobs).to.have.length(2);
    }
    const [sent] = callsMentioning(h, marker);
    expect(sent).to.include({ n: 3, logprobs: true, top_logprobs: 2, max_tokens: 8192 });
    const run = await runOf(h, completion.id);
    expect(run.usage!.output_tokens).to.equal(completion.usage!.completion_tokens);

    // Streamed, each answer arrives under its index and ends with its own finish_reason.
    const stream = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: marker }],
      n: 2,
      stream: true,
    });
    const texts = ["", ""];
    const finished: number[] = [];
    for await (const chunk of stream)
      for (const c of chunk.choices) {
        texts[c.index] += c.delta.content ?? "";
        if (c.finish_reason) finished.push(c.index);
      }
    expect(finished.sort()).to.deep.equal([0, 1]);
    expect(texts[0]).to.equal(completion.choices[0].message.content);
    expect(texts[1]).to.equal(`${completion.choices[0].message.content} [answer 2 of 2]`);
  });

  it("response_format json_schema: the answer is JSON of the schema; seed, stop and user reach the model", async () => {
    const marker = `json-${Date.now()}`;
    const completion = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: marker }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "city",
          strict: true,
          schema: {
            type: "object",
            properties: { name: { type: "string" }, population: { type: "integer" } },
            required: ["name", "population"],
            additionalProperties: false,
          },
        },
      },
      seed: 11,
      stop: ["END"],
      user: "end-user-7",
    });
    const parsed = JSON.parse(completion.choices[0].message.content!);
    expect(parsed.name).to.be.a("string");
    expect(Number.isInteger(parsed.population)).to.equal(true);
    const [sent] = callsMentioning(h, marker);
    expect(sent).to.include({ seed: 11, user: "end-user-7" });
    expect(sent.stop).to.deep.equal(["END"]);
  });

  it("a streamed chat run is read again from GET /v1/jobs/{job_id}/events, and resumed after a dropped frame with Last-Event-ID", async () => {
    const marker = `resume-${Date.now()}`;
    const res = await fetch(`${h.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-4.1",
        messages: [{ role: "user", content: marker }],
        tools: [weather],
        stream: true,
        sim_latency_ms: 600,
      }),
    });
    const reader = new SseReader(res);
    const first = (await reader.next())!;
    const second = (await reader.next())!;
    await reader.close(); // the client's connection drops after two frames
    const jobId = String(first.data.id)
      .replace(/^chatcmpl-/, "")
      .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
    const events = (headers: Record<string, string> = {}) =>
      fetch(`${h.baseUrl}/v1/jobs/${jobId}/events`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    const resumed = await new SseReader(await events({ "last-event-id": second.id! })).rest();
    const whole = await new SseReader(await events()).rest();
    expect(whole.map((f) => f.id).slice(2)).to.deep.equal(resumed.map((f) => f.id));
    const pieces = whole.flatMap((f) =>
      typeof f.data === "object" ? ((f.data.choices as { delta: { tool_calls?: unknown[] } }[] | undefined) ?? []) : [],
    );
    const calls = pieces.flatMap((c) => c.delta?.tool_calls ?? []);
    expect(calls.length).to.be.above(0);
    expect(whole.at(-1)!.data).to.equal("[DONE]");
  });

  it("refuses an embedding model as a chat model (400, param model), before anything is stored", async () => {
    const refused = await client.chat.completions
      .create({ model: "text-embedding-3-small", messages: [{ role: "user", content: "hi" }] })
      .catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).to.equal("model");
    expect((refused as Error).message).to.match(/embedding model/);
  });

  it("an answer too large to read is not asked for again and is billed once, every answer at its cap", async () => {
    const marker = `too-large-${Date.now()}`;
    const failed = await new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 }).chat.completions
      .create({
        model: "gpt-4.1",
        messages: [{ role: "user", content: marker }],
        n: 8,
        max_tokens: 4_000,
        logprobs: true,
        top_logprobs: 20,
        // @ts-expect-error: the simulator's control, not in OpenAI's types
        sim_reply: "a ".repeat(2_000),
      })
      .catch((err: unknown) => err);
    expect(failed).to.be.instanceOf(OpenAI.InternalServerError);
    expect(callsMentioning(h, marker), "asked once").to.have.length(1);
    const [run] = await h.deps.ds.query(
      `SELECT usage, status FROM runs WHERE user_id = $1 AND request->'messages'->0->>'content' = $2`,
      [userId, marker],
    );
    expect(run.status).to.equal("failed");
    expect(run.usage.output_tokens).to.equal(8 * 4_000);
  });

  it("counts every chat call in the usage report and the bill, one run each", async () => {
    const usage = await request(h.baseUrl, "GET", "/v1/usage", { key });
    expect(usage.status).to.equal(200);
    const [runs] = await h.deps.ds.query(
      `SELECT count(*)::int AS runs, sum((usage->>'output_tokens')::int)::int AS output_tokens
         FROM runs WHERE user_id = $1 AND kind = 'chat_completion'`,
      [userId],
    );
    expect(runs.runs).to.be.at.least(9);
    expect(usage.body.totals.output_tokens).to.equal(runs.output_tokens);
  });
});
