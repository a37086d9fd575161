import { randomUUID } from "node:crypto";
import { expect } from "chai";
import OpenAI from "openai";
import { harness, type Harness } from "../helpers/harness";
import { thrown } from "../helpers/openai-client";
import { rateLimitedApp } from "../helpers/rate-limited-app";
import { eventually, request } from "../helpers/http";
import { DocumentSchemas } from "../helpers/openapi";
import { callsMentioning } from "../helpers/swarm";

const CHAT = "/v1/chat/completions";

/**
 * The OpenAI-compatible paths' refusals and bookkeeping: every error in OpenAI's body and status
 * (the SDK's own error classes), refusals before any LLM call, rate limits, billing, idempotency.
 */
describe("OpenAI-compatible endpoints: refusals, limits, billing, idempotency", () => {
  let h: Harness;
  let key: string;
  let client: OpenAI;
  let schemas: DocumentSchemas;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    client = new OpenAI({ apiKey: key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    schemas = new DocumentSchemas((await request(h.baseUrl, "GET", "/openapi.json")).body, "api");
  });

  /** Posts a raw chat request and checks its answer against the OpenAPI document. */
  async function post(body: unknown, headers: Record<string, string> = {}, raw?: string) {
    const res = await request(h.baseUrl, "POST", CHAT, { key, body, headers, raw });
    expect(schemas.responseProblems("POST", CHAT, res)).to.deep.equal([]);
    return res;
  }

  it("refuses n above 8 and an empty conversation with BadRequestError, before any LLM call", async () => {
    const marker = `refused-${Date.now()}`;
    const before = h.sim.journal.length;
    const n = await thrown(
      client.chat.completions.create({ model: "gpt-4.1", n: 9, messages: [{ role: "user", content: marker }] }),
    );
    expect(n).to.be.instanceOf(OpenAI.BadRequestError);
    expect(n).to.include({ status: 400, type: "invalid_request_error", param: "n" });
    expect(n.message).to.match(/'n' must be less than or equal to 8/);

    const none = await thrown(client.chat.completions.create({ model: "gpt-4.1", messages: [] }));
    expect(none).to.be.instanceOf(OpenAI.BadRequestError);
    expect(none.param).to.equal("messages");
    expect(h.sim.journal.length, "no LLM call").to.equal(before);
  });

  it("refuses bad roles, content parts, tool messages and tools, and answers it cannot give, naming the parameter", async () => {
    const user = { role: "user", content: "hi" };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ messages: [{ role: "function", content: "x", name: "f" }] }, "messages[0].role", /'function' messages/],
      [
        { messages: [{ role: "user", content: [{ type: "input_audio", input_audio: {} }] }] },
        "messages[0].content[0].type",
        /'text' or 'image_url'/,
      ],
      [
        { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "ftp://x/y.png" } }] }] },
        "messages[0].content[0].image_url.url",
        /http\(s\) URL/,
      ],
      [{ messages: [{ role: "user" }] }, "messages[0].content", /required/],
      [{ messages: [{ role: "tool", content: "x" }] }, "messages[0].tool_call_id", /required/],
      [
        { messages: [user, { role: "tool", content: "x", tool_call_id: "call_1" }] },
        "messages[1].tool_call_id",
        /must answer a tool call of an earlier assistant message/,
      ],
      [
        { messages: [{ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function" }] }] },
        "messages[0].tool_calls[0].function",
        /required/,
      ],
      [{ messages: [user], tools: [{ type: "custom", custom: { name: "f" } }] }, "tools[0].type", /custom/],
      [
        { messages: [user], tools: [{ type: "function", function: { name: "bad name!" } }] },
        "tools[0].function.name",
        /letters, digits/,
      ],
      [{ messages: [user], functions: [{ name: "f" }] }, "functions", /deprecated form of 'tools'/],
      [{ messages: [user], tool_choice: "auto" }, "tool_choice", /only allowed when 'tools' are specified/],
      [{ messages: [user], top_logprobs: 2 }, "top_logprobs", /only with logprobs: true/],
      [{ messages: [user], audio: { voice: "alloy", format: "mp3" } }, "audio", /answers are text/],
      [
        {
          messages: [
            { role: "user", content: [{ type: "text", text: "x", image_url: { url: "http://169.254.169.254/" } }] },
          ],
        },
        "messages[0].content[0].image_url",
        /not allowed/,
      ],
      [
        {
          messages: [{ role: "system", content: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }] }],
        },
        "messages[0].content[0].cache_control",
        /not a field of this endpoint/,
      ],
      [
        {
          messages: [
            {
              role: "user",
              content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", api_base: "x" } }],
            },
          ],
        },
        "messages[0].content[0].image_url.api_base",
        /not a field of this endpoint|not allowed/,
      ],
      [
        {
          messages: [
            user,
            {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
            },
            user,
          ],
        },
        "messages[1].tool_calls",
        /must be followed by a 'tool' message answering each call/,
      ],
      [{ messages: [user, { role: "assistant", content: null }] }, "messages[1].content", /needs content/],
      [{ messages: [user], parallel_tool_calls: false }, "parallel_tool_calls", /only allowed when 'tools'/],
    ];
    for (const [body, param, message] of cases) {
      const res = await post({ model: "gpt-4.1", ...body });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error, JSON.stringify(body)).to.include({ type: "invalid_request_error", param });
      expect(res.body.error.message).to.match(message);
    }
  });

  it("refuses an image URL at a private address with the egress policy, naming where it sits", async () => {
    const res = await post({
      model: "gpt-4.1",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url: "http://10.0.0.7/cat.png" } },
          ],
        },
      ],
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ type: "invalid_request_error", code: "egress_refused" });
    expect(res.body.error.message).to.match(/^messages\[0\]\.content\[1\]\.image_url\.url: /);
  });

  it("answers a malformed body and a bad key in OpenAI's shape, and the Swarms catalogue in its own", async () => {
    const malformed = await post(undefined, { "content-type": "application/json" }, "{nope");
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error).to.include({ type: "invalid_request_error", param: null });

    const stranger = new OpenAI({ apiKey: "sk-not-a-key", baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    const auth = await thrown(
      stranger.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(auth).to.be.instanceOf(OpenAI.AuthenticationError);
    expect(auth).to.include({ status: 401, type: "authentication_error", code: "invalid_api_key" });
    expect(await thrown(stranger.models.list())).to.be.instanceOf(OpenAI.AuthenticationError);

    // The Swarms catalogue keeps its own shape beside them.
    const swarms = await request(h.baseUrl, "GET", "/v1/models/available", { headers: { "x-api-key": "nope" } });
    expect(swarms.body).to.include({ code: "AUTHENTICATION_FAILED", status_code: 401 });
  });

  it("answers OpenAI's paths it does not serve in OpenAI's shape, so the SDK prints why (a 404, or 401 without a key)", async () => {
    const files = await thrown(client.files.list());
    expect(files).to.be.instanceOf(OpenAI.NotFoundError);
    expect(files).to.include({ status: 404, type: "invalid_request_error", code: "not_found" });
    expect(files.message).to.equal("404 No route for GET /v1/files");
    const tuning = await thrown(client.fineTuning.jobs.create({ model: "gpt-4.1", training_file: "file-1" }));
    expect(tuning.message).to.equal("404 No route for POST /v1/fine_tuning/jobs");

    const stranger = new OpenAI({ apiKey: "sk-not-a-key", baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    const auth = await thrown(stranger.files.list());
    expect(auth).to.be.instanceOf(OpenAI.AuthenticationError);
    expect(auth).to.include({ type: "authentication_error", code: "invalid_api_key" });

    // A path of no API at all keeps the Swarms shape, as every other /v1 path.
    const unknown = await request(h.baseUrl, "GET", "/v1/nothing-here", { key });
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.include({ code: "NOT_FOUND", status_code: 404 });
  });

  it("refuses past the rate limit with RateLimitError and Retry-After", async () => {
    const app = await rateLimitedApp(h, 1);
    try {
      const limited = new OpenAI({ apiKey: key, baseURL: `${app.url}/v1`, maxRetries: 0 });
      await limited.models.list();
      const err = await thrown(
        limited.chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }),
      );
      expect(err).to.be.instanceOf(OpenAI.RateLimitError);
      expect(err).to.include({ status: 429, type: "rate_limit_error", code: "rate_limit_exceeded" });
      expect(Number(err.headers?.get("retry-after"))).to.be.within(1, 60);
      expect(err.headers?.get("x-ratelimit-remaining-minute")).to.equal("0");
    } finally {
      await app.close();
    }
  });

  it("bills the completion like an agent run: its usage row and GET /v1/usage count it", async () => {
    const payer = await h.newKey();
    const billed = new OpenAI({ apiKey: payer.key, baseURL: `${h.baseUrl}/v1`, maxRetries: 0 });
    const completion = await billed.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: `bill me ${Date.now()}` }],
    });
    const [steps] = await h.deps.ds.query(
      `SELECT count(*)::int AS calls, sum(s.input_tokens)::int AS input_tokens, sum(s.output_tokens)::int AS output_tokens
         FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.user_id = $1`,
      [payer.userId],
    );
    expect(steps).to.deep.equal({
      calls: 1,
      input_tokens: completion.usage!.prompt_tokens,
      output_tokens: completion.usage!.completion_tokens,
    });
    const usage = await request(h.baseUrl, "GET", "/v1/usage", { key: payer.key });
    expect(usage.status).to.equal(200);
    expect(usage.body.totals).to.include({
      calls: 1,
      input_tokens: completion.usage!.prompt_tokens,
      output_tokens: completion.usage!.completion_tokens,
      total_tokens: completion.usage!.total_tokens,
    });
    expect(usage.body.totals.cost).to.be.above(0);
    // The chat run's per-agent charge is on its bill and in the ledger, beside its call.
    expect(usage.body.by_day.map((d: { model: string }) => d.model)).to.deep.equal(["fee:agent", "gpt-4.1"]);
    const [run] = await h.deps.ds.query(`SELECT usage FROM runs WHERE user_id = $1`, [payer.userId]);
    expect(usage.body.totals.cost).to.be.closeTo(run.usage.total_cost, 1e-6);
  });

  it("answers an Idempotency-Key once: the replay is the same completion with no second LLM call; another body is 409", async () => {
    const marker = `idem-${Date.now()}`;
    const idempotencyKey = randomUUID();
    const body = { model: "gpt-4.1", messages: [{ role: "user" as const, content: marker }] };
    const first = await client.chat.completions.create(body, { headers: { "Idempotency-Key": idempotencyKey } });
    const again = await client.chat.completions
      .create(body, { headers: { "Idempotency-Key": idempotencyKey } })
      .withResponse();
    expect(again.data).to.deep.equal(first);
    expect(again.response.headers.get("idempotent-replayed")).to.equal("true");
    expect(callsMentioning(h, marker)).to.have.length(1);

    const other = await thrown(
      client.chat.completions.create(
        { ...body, messages: [{ role: "user", content: `${marker} other` }] },
        { headers: { "Idempotency-Key": idempotencyKey } },
      ),
    );
    expect(other).to.be.instanceOf(OpenAI.ConflictError);
    expect(other).to.include({ status: 409, type: "invalid_request_error", code: "idempotency_key_reused" });
  });

  it("with Prefer: respond-async answers 202 with the job at once; GET /v1/jobs/{job_id} reads the run behind the completion", async () => {
    const marker = `async-${Date.now()}`;
    const res = await post(
      { model: "gpt-4.1", messages: [{ role: "user", content: marker }] },
      { prefer: "respond-async" },
    );
    expect(res.status).to.equal(202);
    expect(res.headers.get("location")).to.equal(`/v1/jobs/${res.body.job_id}`);
    const job = await eventually(async () => {
      const read = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return read.body?.choices ? read : undefined;
    });
    expect(job.body).to.include({ object: "chat.completion", id: `chatcmpl-${res.body.job_id.replace(/-/g, "")}` });
    expect(job.body.choices).to.have.length(1);
    expect(callsMentioning(h, marker)).to.have.length(1);
  });

  it("answers the replay of a streamed completion with OpenAI's 409: a stream cannot be sent twice, nor run twice", async () => {
    const marker = `idem-stream-${Date.now()}`;
    const options = { headers: { "Idempotency-Key": randomUUID() } };
    const body = { model: "gpt-4.1", messages: [{ role: "user" as const, content: marker }], stream: true as const };
    const stream = await client.chat.completions.create(body, options);
    for await (const chunk of stream) expect(chunk.object).to.equal("chat.completion.chunk");
    const replay = await thrown(client.chat.completions.create(body, options));
    expect(replay).to.be.instanceOf(OpenAI.ConflictError);
    expect(replay).to.include({ type: "invalid_request_error", code: "idempotency_replay_unavailable" });
    expect(callsMentioning(h, marker)).to.have.length(1);
  });
});
