import { expect } from "chai";
import OpenAI from "openai";
import { findRun } from "../../shared/db/runs/run-rows";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { callsMentioning } from "../helpers/swarm";

/** The run id behind a response id (`resp_` and the run id's hex). */
function runIdOf(responseId: string): string {
  const hex = responseId.replace(/^resp_/, "");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What a rejected SDK call threw. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a failure"),
    (err: unknown) => err,
  );

/** Polls a response until `done` holds of it, or fails at the deadline. */
async function until(
  client: OpenAI,
  id: string,
  done: (r: OpenAI.Responses.Response) => boolean,
  ms = 20_000,
): Promise<OpenAI.Responses.Response[]> {
  const seen: OpenAI.Responses.Response[] = [];
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const response = await client.responses.retrieve(id);
    seen.push(response);
    if (done(response)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`response ${id} did not reach the state in ${ms} ms: ${seen.at(-1)?.status}`);
}

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: true,
};

/**
 * `/v1/responses` driven by the official `openai` SDK: a response is one `response` run (one model
 * call through the LLM simulator), read back, continued, streamed, run in the background,
 * cancelled, resumed, listed and deleted, each only by its own account.
 */
describe("OpenAI Responses API (through the openai SDK)", () => {
  let h: Harness;
  let key: string;
  let userId: string;
  let client: OpenAI;
  let other: OpenAI;

  before(async () => {
    h = await harness();
    const connect = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    ({ key, userId } = await h.newKey());
    client = connect(key);
    other = connect((await h.newKey()).key);
  });
  afterEach(() => h.sim.clearScripts());

  it("create → the call gets instructions then the input; the answer, its usage and run read back by retrieve, input_items and GET /v1/jobs", async () => {
    const marker = `resp-${Date.now()}`;
    const response = await client.responses.create({
      model: "gpt-4.1-mini",
      instructions: "You are terse.",
      input: `Name a bee. ${marker}`,
      temperature: 0.3,
      max_output_tokens: 200,
      metadata: { case: "plain" },
    });
    const [sent] = callsMentioning(h, marker);
    expect(sent.messages).to.deep.equal([
      { role: "system", content: "You are terse." },
      { role: "user", content: `Name a bee. ${marker}` },
    ]);
    expect(sent).to.include({ temperature: 0.3 });
    expect(response).to.include({ object: "response", status: "completed", model: "gpt-4.1-mini", background: false });
    expect(response.id).to.match(/^resp_[0-9a-f]{32}$/);
    expect(response.output_text).to.include("[simulated");
    expect(response.output).to.have.length(1);
    expect(response.output[0]).to.include({ type: "message", role: "assistant", status: "completed" });
    expect(response.metadata).to.deep.equal({ case: "plain" });
    const run = await findRun(h.deps.ds, runIdOf(response.id));
    expect(run).to.include({ kind: "response", status: "succeeded" });
    expect(response.usage).to.include({
      input_tokens: (run!.usage as { input_tokens: number }).input_tokens,
      output_tokens: (run!.usage as { output_tokens: number }).output_tokens,
    });
    expect(response.usage!.input_tokens).to.be.greaterThan(0);

    const again = await client.responses.retrieve(response.id);
    expect(again.output).to.deep.equal(response.output);
    expect(again.status).to.equal("completed");
    const items = await client.responses.inputItems.list(response.id);
    expect(items.data).to.have.length(1);
    expect(items.data[0]).to.deep.include({ type: "message", role: "user", status: "completed" });
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${run!.id}`, { key });
    expect(job.status).to.equal(200);
    expect(job.body).to.include({ id: response.id, object: "response" });
  });

  it("max_output_tokens cuts the answer: incomplete with its reason; service_tier flex runs the run in the flex tier", async () => {
    const response = await client.responses.create({
      model: "gpt-4.1",
      input: `A long answer please ${Date.now()}`,
      max_output_tokens: 16,
      service_tier: "flex",
    });
    expect(response).to.deep.include({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      service_tier: "flex",
    });
    expect(response.usage!.output_tokens).to.be.at.most(16);
    const run = await findRun(h.deps.ds, runIdOf(response.id));
    expect(run!.service_tier).to.equal("flex");
  });

  it("a function-call loop: function_call items out, function_call_output items back through previous_response_id, then the answer", async () => {
    const marker = `tools-${Date.now()}`;
    const first = await client.responses.create({
      model: "gpt-4.1",
      input: `Weather in Paris? ${marker}`,
      tools: [weatherTool],
    });
    const calls = first.output.filter((item) => item.type === "function_call");
    expect(calls).to.have.length(1);
    const [call] = calls as OpenAI.Responses.ResponseFunctionToolCall[];
    expect(call).to.include({ name: "get_weather", status: "completed" });
    expect(JSON.parse(call.arguments)).to.have.property("city").that.is.a("string");
    const [firstSent] = callsMentioning(h, marker);
    expect(firstSent.tools).to.deep.equal([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "The weather in a city",
          parameters: weatherTool.parameters,
          strict: true,
        },
      },
    ]);

    const second = await client.responses.create({
      model: "gpt-4.1",
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: call.call_id, output: `sunny ${marker}` }],
      tools: [weatherTool],
    });
    expect(second).to.include({ status: "completed", previous_response_id: first.id });
    expect(second.output_text).to.be.a("string").and.not.empty;
    const sent = callsMentioning(h, marker).at(-1);
    expect(sent.messages.map((m: { role: string }) => m.role)).to.deep.equal(["user", "assistant", "tool"]);
    expect(sent.messages[1].tool_calls[0]).to.deep.include({ id: call.call_id });
    expect(sent.messages[2]).to.deep.equal({ role: "tool", tool_call_id: call.call_id, content: `sunny ${marker}` });
  });

  it("previous_response_id continues a conversation without its instructions; another account's id is 404", async () => {
    const marker = `chain-${Date.now()}`;
    const first = await client.responses.create({ model: "gpt-4.1", instructions: "Old.", input: `One ${marker}` });
    const second = await client.responses.create({
      model: "gpt-4.1",
      instructions: "New.",
      previous_response_id: first.id,
      input: "Two",
    });
    expect(second.status).to.equal("completed");
    const sent = callsMentioning(h, marker).at(-1);
    expect(sent.messages).to.deep.equal([
      { role: "system", content: "New." },
      { role: "user", content: `One ${marker}` },
      { role: "assistant", content: first.output_text },
      { role: "user", content: "Two" },
    ]);
    const foreign = await failure(
      other.responses.create({ model: "gpt-4.1", previous_response_id: first.id, input: "x" }),
    );
    expect(foreign).to.be.instanceOf(OpenAI.NotFoundError);
  });

  it("streams OpenAI's events, numbered from 0: responses.stream() and create({stream: true}) end with what retrieve reads", async () => {
    const stream = client.responses.stream({ model: "gpt-4.1", input: `Stream a haiku ${Date.now()}` });
    const types: string[] = [];
    const numbers: number[] = [];
    for await (const event of stream) {
      types.push(event.type);
      numbers.push(event.sequence_number);
    }
    const final = await stream.finalResponse();
    expect(types[0]).to.equal("response.created");
    expect(types).to.include.members(["response.output_text.delta", "response.output_item.done"]);
    expect(types.at(-1)).to.equal("response.completed");
    expect(numbers).to.deep.equal(numbers.map((_, i) => i));
    const read = await client.responses.retrieve(final.id);
    expect(read.output.map((item) => [item.type, item.id])).to.deep.equal(final.output.map((i) => [i.type, i.id]));
    expect(final.output_text).to.equal(read.output_text).and.include("[simulated");

    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({ model: "gpt-4.1", input: "Hi", stream: true }))
      events.push(event);
    expect(events.map((e) => e.type).slice(0, 2)).to.deep.equal(["response.created", "response.in_progress"]);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.type).to.equal("response.completed");
    expect(completed.response.usage!.total_tokens).to.be.greaterThan(0);
  });

  it("background: queued at once, in_progress, then completed; store: false with background is refused", async () => {
    const marker = `bg-${Date.now()}`;
    h.sim.script({ contains: marker, latency_ms: 800 });
    const response = await client.responses.create({ model: "gpt-4.1", input: `Slowly ${marker}`, background: true });
    expect(response).to.include({ status: "queued", background: true });
    expect(response.output).to.deep.equal([]);
    const seen = await until(client, response.id, (r) => r.status === "completed");
    expect(seen.map((r) => r.status)).to.include("in_progress");
    expect(seen.at(-1)!.output_text).to.include("[simulated");
    const refused = await failure(
      client.responses.create({ model: "gpt-4.1", input: "x", background: true, store: false }),
    );
    expect(refused).to.be.instanceOf(OpenAI.BadRequestError);
    expect(refused).to.include({ param: "background" });
  });

  it("a model call that fails: a background response reads failed with its error; a stream ends with response.failed", async () => {
    const marker = `fail-${Date.now()}`;
    h.sim.script({ contains: marker, error: 400 });
    const background = await client.responses.create({ model: "gpt-4.1", input: `Fail ${marker}`, background: true });
    const [failed] = (
      await until(client, background.id, (r) => r.status !== "queued" && r.status !== "in_progress")
    ).slice(-1);
    expect(failed.status).to.equal("failed");
    expect(failed.error).to.include({ code: "server_error" });
    expect(failed.error!.message).to.be.a("string").and.not.empty;
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({
      model: "gpt-4.1",
      input: `Fail ${marker}`,
      stream: true,
    }))
      events.push(event);
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(last.type).to.equal("response.failed");
    expect(last.response).to.deep.include({ status: "failed" });
    expect(last.response.error!.message).to.equal(failed.error!.message);
  });

  it("cancel stops a background response (cancelled, and so it stays); a foreground one cannot be cancelled", async () => {
    const marker = `cancel-${Date.now()}`;
    h.sim.script({ contains: marker, latency_ms: 20_000 });
    const response = await client.responses.create({ model: "gpt-4.1", input: `Never ${marker}`, background: true });
    await until(client, response.id, (r) => r.status === "in_progress");
    const cancelled = await client.responses.cancel(response.id);
    expect(cancelled).to.include({ id: response.id, status: "cancelled" });
    expect((await client.responses.cancel(response.id)).status).to.equal("cancelled");
    expect((await client.responses.retrieve(response.id)).status).to.equal("cancelled");
    const run = await findRun(h.deps.ds, runIdOf(response.id));
    expect(run!.status).to.equal("cancelled");
    const foreground = await client.responses.create({ model: "gpt-4.1", input: "quick" });
    expect(await failure(client.responses.cancel(foreground.id))).to.be.instanceOf(OpenAI.BadRequestError);
    expect(await failure(other.responses.cancel(response.id))).to.be.instanceOf(OpenAI.NotFoundError);
  });

  it("a background stream resumes with retrieve(id, {stream: true, starting_after}) exactly after the last event read", async () => {
    const marker = `resume-${Date.now()}`;
    h.sim.script({ contains: marker, latency_ms: 400 });
    const created = await client.responses.create({
      model: "gpt-4.1",
      input: `Resume ${marker}`,
      background: true,
      stream: true,
    });
    const head: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of created) {
      head.push(event);
      if (event.type === "response.in_progress") break; // the client goes away
    }
    const id = (head[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;
    expect((head[0] as OpenAI.Responses.ResponseCreatedEvent).response.status).to.equal("queued");
    const last = head.at(-1)!.sequence_number;
    const rest: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true, starting_after: last }))
      rest.push(event);
    expect(rest[0].sequence_number).to.equal(last + 1);
    expect(rest.map((e) => e.sequence_number)).to.deep.equal(rest.map((_, i) => last + 1 + i));
    expect(rest.at(-1)!.type).to.equal("response.completed");
    const whole: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true })) whole.push(event);
    expect(whole.slice(last + 1).map((e) => [e.type, e.sequence_number])).to.deep.equal(
      rest.map((e) => [e.type, e.sequence_number]),
    );
  });

  it("inputItems.list pages the input items as given: order, limit, after, has_more, first_id and last_id", async () => {
    const response = await client.responses.create({
      model: "gpt-4.1",
      input: [
        { role: "user", content: "one" },
        { role: "assistant", content: "two" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "three" }] },
      ],
    });
    const texts = (page: { data: OpenAI.Responses.ResponseItem[] }) =>
      page.data.map(
        (item) => ((item as OpenAI.Responses.ResponseInputMessageItem).content[0] as { text: string }).text,
      );
    const newest = await client.responses.inputItems.list(response.id);
    expect(texts(newest)).to.deep.equal(["three", "two", "one"]);
    const first = await client.responses.inputItems.list(response.id, { order: "asc", limit: 2 });
    expect(texts(first)).to.deep.equal(["one", "two"]);
    expect(first.has_more).to.equal(true);
    const raw = await request(h.baseUrl, "GET", `/v1/responses/${response.id}/input_items?order=asc&limit=2`, { key });
    expect(raw.body).to.include({
      object: "list",
      first_id: first.data[0].id,
      last_id: first.data[1].id,
      has_more: true,
    });
    const rest = await client.responses.inputItems.list(response.id, {
      order: "asc",
      limit: 2,
      after: first.data[1].id,
    });
    expect(texts(rest)).to.deep.equal(["three"]);
    expect(rest.has_more).to.equal(false);
    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(response.id, { order: "asc", limit: 1 }))
      all.push(((item as OpenAI.Responses.ResponseInputMessageItem).content[0] as { text: string }).text);
    expect(all).to.deep.equal(["one", "two", "three"]);
  });

  it("delete erases a response (404 after, for retrieve, input_items and chaining); store: false is never readable; other accounts get 404", async () => {
    const response = await client.responses.create({ model: "gpt-4.1", input: `Forget me ${Date.now()}` });
    expect(await failure(other.responses.retrieve(response.id))).to.be.instanceOf(OpenAI.NotFoundError);
    expect(await failure(other.responses.delete(response.id))).to.be.instanceOf(OpenAI.NotFoundError);
    expect(await failure(other.responses.inputItems.list(response.id))).to.be.instanceOf(OpenAI.NotFoundError);
    const deleted = await request(h.baseUrl, "DELETE", `/v1/responses/${response.id}`, { key });
    expect(deleted.body).to.deep.equal({ id: response.id, object: "response", deleted: true });
    expect(await failure(client.responses.retrieve(response.id))).to.be.instanceOf(OpenAI.NotFoundError);
    expect(await failure(client.responses.inputItems.list(response.id))).to.be.instanceOf(OpenAI.NotFoundError);
    const chained = client.responses.create({ model: "gpt-4.1", previous_response_id: response.id, input: "x" });
    expect(await failure(chained)).to.be.instanceOf(OpenAI.NotFoundError);
    const run = await findRun(h.deps.ds, runIdOf(response.id));
    expect(JSON.stringify(run!.request)).not.to.include("Forget me");
    expect(run!.output).to.equal(null);

    const unstored = await client.responses.create({ model: "gpt-4.1", input: "once", store: false });
    expect(unstored).to.include({ status: "completed", store: false });
    expect(await failure(client.responses.retrieve(unstored.id))).to.be.instanceOf(OpenAI.NotFoundError);
  });

  it("refuses what it cannot honour with 400 naming the param, before any run is stored", async () => {
    const runs = async () => (await h.deps.ds.query("SELECT id FROM runs WHERE user_id = $1", [userId])).length;
    const before = await runs();
    const refused = await failure(
      client.responses.create({ model: "gpt-4.1", input: "x", tools: [{ type: "web_search" }] }),
    );
    expect(refused).to.be.instanceOf(OpenAI.BadRequestError);
    expect(refused).to.include({ param: "tools[0].type" });
    expect((refused as Error).message).to.include("built-in tools");
    const conversation = await failure(client.responses.create({ model: "gpt-4.1", input: "x", conversation: "c" }));
    expect(conversation).to.include({ param: "conversation" });
    // The chat call's own checks apply: a function_call_output answering no call of the conversation.
    const orphan = await failure(
      client.responses.create({
        model: "gpt-4.1",
        input: [{ type: "function_call_output", call_id: "call_none", output: "x" }],
      }),
    );
    expect(orphan).to.be.instanceOf(OpenAI.BadRequestError);
    expect((orphan as Error).message).to.include("call_none");
    const badId = await failure(client.responses.retrieve("resp_nope"));
    expect(badId).to.be.instanceOf(OpenAI.NotFoundError);
    expect(await runs()).to.equal(before);
  });
});
