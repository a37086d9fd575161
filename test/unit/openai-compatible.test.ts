import { expect } from "chai";
import type { Context } from "koa";
import { openAiErrorBodies } from "../../api/http/openai-error-bodies";
import { admissionOf, defersRateLimitVerdict } from "../../api/routes/v1";
import { isOpenAiPath } from "../../api/routes/v1/openai/openai-paths";
import { chatRunOf, type ChatCompletionRequest } from "../../api/runs/chat-request";
import { chatStreamFormat } from "../../api/runs/chat-stream";
import { openAiModelById, openAiModelList } from "../../api/runs/openai-models";
import { chatCompletionSchema } from "../../api/schemas/chat-completion.schema";
import { validateRequest } from "../../api/schemas/validate-request";
import { loadConfig } from "../../shared/config";
import { AppError, AuthenticationError, ValidationError } from "../../shared/errors";

/** A chat body as the route hands it on: validated by its schema. */
function chat(body: Record<string, unknown>): ChatCompletionRequest {
  const { value, error } = validateRequest(chatCompletionSchema, { model: "gpt-4.1", ...body });
  if (error) throw error;
  return value as ChatCompletionRequest;
}

/** The 400 a translation refuses with: its message and param. */
function refusal(body: Record<string, unknown>): { message: string; param: unknown } {
  try {
    chatRunOf(chat(body));
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    const e = err as AppError;
    expect(e.status).to.equal(400);
    return { message: e.message, param: e.extra.param };
  }
  throw new Error("expected a refusal");
}

describe("OpenAI compatibility", () => {
  describe("a chat request as a chat run (chatRunOf)", () => {
    it("passes the conversation as written (tool calls and results too), the options and the tools; caps each answer", () => {
      const tools = [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }];
      const { request, imageUrls } = chatRunOf(
        chat({
          messages: [
            { role: "system", content: "Be brief." },
            { role: "user", content: "q1" },
            {
              role: "assistant",
              content: null,
              refusal: null,
              annotations: [],
              tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }],
            },
            { role: "tool", tool_call_id: "call_1", content: "42" },
            { role: "developer", content: [{ type: "text", text: "Use metric units." }] },
            {
              role: "user",
              content: [
                { type: "text", text: "q2" },
                { type: "image_url", image_url: { url: "https://example.test/a.png" } },
                { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
              ],
            },
          ],
          temperature: 0,
          max_tokens: 50,
          max_completion_tokens: 40,
          top_p: 0.5,
          stop: ["\n"],
          response_format: { type: "json_object" },
          user: "u",
          n: 2,
          logprobs: true,
          top_logprobs: 3,
          tools,
          tool_choice: "auto",
          parallel_tool_calls: false,
          store: true,
          stream: true,
        }),
      );
      expect(request).to.deep.include({ model: "gpt-4.1", max_tokens: 40, stream: true });
      expect(request.options).to.deep.equal({
        temperature: 0,
        top_p: 0.5,
        stop: ["\n"],
        response_format: { type: "json_object" },
        user: "u",
        n: 2,
        logprobs: true,
        top_logprobs: 3,
        tools,
        tool_choice: "auto",
        parallel_tool_calls: false,
      });
      expect(request.messages[2]).to.deep.equal({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }],
      });
      expect(request.messages[3]).to.deep.equal({ role: "tool", content: "42", tool_call_id: "call_1" });
      expect(request.messages).to.have.length(6);
      expect(imageUrls).to.deep.equal([
        { url: "https://example.test/a.png", field: "messages[5].content[1].image_url.url" },
      ]);
    });

    it("fills in the output cap and passes no option when none is given", () => {
      const { request } = chatRunOf(chat({ messages: [{ role: "user", content: "hi" }] }));
      expect(request).to.deep.equal({
        model: "gpt-4.1",
        messages: [{ role: "user", content: "hi" }],
        options: {},
        max_tokens: 8192,
        stream: false,
      });
    });

    it("refuses a tool message answering no earlier call, a tool choice without or outside the tools, too many images", () => {
      expect(
        refusal({
          messages: [
            { role: "user", content: "q" },
            { role: "tool", tool_call_id: "call_x", content: "r" },
          ],
        }).param,
      ).to.equal("messages[1].tool_call_id");
      expect(refusal({ messages: [{ role: "user", content: "q" }], tool_choice: "required" }).param).to.equal(
        "tool_choice",
      );
      const tools = [{ type: "function", function: { name: "a" } }];
      expect(
        refusal({
          messages: [{ role: "user", content: "q" }],
          tools,
          tool_choice: { type: "function", function: { name: "b" } },
        }).message,
      ).to.match(/function 'b' is not in 'tools'/);
      const image = { type: "image_url", image_url: { url: "https://example.test/a.png" } };
      const many = Array.from({ length: 21 }, () => image);
      expect(refusal({ messages: [{ role: "user", content: [{ type: "text", text: "q" }, ...many] }] })).to.deep.equal({
        message: "At most 20 images per request.",
        param: "messages",
      });
    });
  });

  describe("OpenAI's error bodies", () => {
    const bodies = openAiErrorBodies("https://apiary.test/platform/api-keys");

    it("makes a schema failure a 400 naming the first parameter, with every problem in the message", () => {
      const rendered = bodies.render(
        new ValidationError([
          { loc: ["body", "messages", 0, "role"], msg: "'messages[0].role' must be one of …", type: "any.only" },
          { loc: ["body", "n"], msg: "'n' must be 1", type: "any.only" },
        ]),
      );
      expect(rendered).to.deep.equal({
        status: 400,
        body: {
          error: {
            message: "'messages[0].role' must be one of …; 'n' must be 1",
            type: "invalid_request_error",
            param: "messages[0].role",
            code: "invalid_value",
          },
        },
      });
      const missing = bodies.render(new ValidationError([{ loc: ["body", "model"], msg: "x", type: "any.required" }]));
      expect((missing.body.error as { code: string }).code).to.equal("missing_required_parameter");
    });

    it("gives each status OpenAI's type and code, keeping extras such as job_id inside error", () => {
      const auth = bodies.render(new AuthenticationError());
      expect(auth.status).to.equal(401);
      expect(auth.body.error).to.include({ type: "authentication_error", code: "invalid_api_key", param: null });
      expect((auth.body.error as { message: string }).message).to.include("https://apiary.test/platform/api-keys");
      const limited = bodies.render(new AppError(429, "RATE_LIMITED", "slow down"));
      expect(limited.body.error).to.include({ type: "rate_limit_error", code: "rate_limit_exceeded" });
      const model = bodies.render(new AppError(404, "MODEL_NOT_FOUND", "no", { param: "model" }));
      expect(model).to.deep.equal({
        status: 404,
        body: { error: { message: "no", type: "invalid_request_error", param: "model", code: "model_not_found" } },
      });
      const failed = bodies.render(new AppError(500, "RUN_FAILED", "boom", { job_id: "j1", agent: "Assistant" }));
      expect(failed.body.error).to.deep.equal({
        message: "boom",
        type: "server_error",
        param: null,
        code: "run_failed",
        job_id: "j1",
        agent: "Assistant",
      });
      expect(bodies.fromHttpError(400, "Unexpected token").code).to.equal("INVALID_JSON");
      expect(bodies.render(bodies.fromHttpError(413, "too large")).body.error).to.include({
        type: "invalid_request_error",
        code: "http_413",
      });
    });
  });

  it("selects OpenAI's bodies by path: every path under one of OpenAI's resources, served or not, not the Swarms catalogue", () => {
    const openAi = ["/v1/chat/completions", "/V1/Chat/Completions/", "/v1/models", "/v1/models/gpt-4.1"];
    // A path of OpenAI's API not served here (a 401, 404 or 405 an OpenAI SDK meets) answers in OpenAI's shape too.
    const beneath = ["/v1/chat/completions/x", "/v1/models/a/b", "/v1/models/available/x", "/v1/chat/completionsx"];
    const unserved = ["/v1/embeddings", "/v1/responses/resp_1/input_items", "/v1/files", "/v1/fine_tuning/jobs"];
    for (const path of [...openAi, ...beneath, ...unserved]) expect(isOpenAiPath(path), path).to.equal(true);
    for (const path of [
      "/v1/models/available",
      "/v1/models/available/",
      "/v1/agent/completions",
      "/v1/swarm/completions",
      "/v1/jobs",
      "/v1",
      "/v2/embeddings",
      "/v1/embeddingsx",
      "/v1/models/../../etc/passwd",
      "/v1/embeddings/../agent/completions",
    ])
      expect(isOpenAiPath(path), path).to.equal(false);
  });

  it("counts a chat completion as a request that starts runs (daily spend) with a deferred verdict", () => {
    const ctx = (path: string, headers: Record<string, string> = {}) =>
      ({
        method: "POST",
        path,
        request: { body: {} },
        get: (name: string) => headers[name] ?? "",
      }) as unknown as Context;
    expect(admissionOf(ctx("/v1/chat/completions"))).to.deep.equal({ points: 1, startsRuns: true });
    expect(admissionOf(ctx("/v1/Chat/Completions/"))).to.deep.equal({ points: 1, startsRuns: true });
    expect(defersRateLimitVerdict(ctx("/v1/chat/completions"))).to.equal(true);
    expect(defersRateLimitVerdict(ctx("/v1/chat/completions", { "idempotency-key": "k" }))).to.equal(false);
  });

  describe("streamed frames (chatStreamFormat)", () => {
    const request = chatRunOf(chat({ messages: [{ role: "user", content: "hi" }], stream: true, model: "m" })).request;
    const runId = "3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a";
    const usage = { input_tokens: 3, output_tokens: 4, total_tokens: 7, img_cost: 0, mcp_cost: 0, total_cost: 0.1 };

    it("ends each answer with its finish_reason chunk, then a raw [DONE]; the usage chunk only when asked", () => {
      const plain = chatStreamFormat(runId, request, false);
      expect(plain.metadata).to.deep.include({ id: "chatcmpl-3d2c1b0a9f8e4d7c8b6a5f4e3d2c1b0a", model: "m" });
      expect(plain.metadata).not.to.have.property("usage");
      const [stop] = plain.framesFor({ type: "choice_end", choice: 0, finish_reason: "tool_calls", logprobs: null });
      expect(stop.data).to.deep.include({
        choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "tool_calls" }],
      });
      expect(plain.framesFor({ type: "finish", usage })).to.deep.equal([{ data: "[DONE]", raw: true }]);
      const withUsage = chatStreamFormat(runId, request, true);
      expect(withUsage.metadata).to.have.property("usage", null);
      const [last, done] = withUsage.framesFor({ type: "finish", usage });
      expect(done).to.deep.equal({ data: "[DONE]", raw: true });
      expect(last.data).to.deep.include({
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      });
    });

    it("ends a failed or unfinished run with OpenAI's in-stream error, which the SDK raises", () => {
      const format = chatStreamFormat(runId, request, false);
      expect(format.framesFor({ type: "error", error: "boom" })).to.deep.equal([
        { data: { error: { message: "boom", type: "server_error", param: null, code: null } } },
      ]);
      expect(format.cutShort?.("later", "run_in_progress")).to.deep.equal({
        data: { error: { message: "later", type: "server_error", param: null, code: "run_in_progress" } },
      });
      expect(format.cutShort?.("lost", "events_lost")).to.deep.equal({
        data: { error: { message: "lost", type: "server_error", param: null, code: "events_lost" } },
      });
      expect(format.framesFor({ type: "chunk", content: "" })).to.deep.equal([]);
    });
  });

  describe("models", () => {
    const keyed = loadConfig({ OPENAI_API_KEY: "k1" });

    it("lists only the catalogue models the configuration can call", () => {
      const list = openAiModelList(keyed);
      expect(list.object).to.equal("list");
      expect(list.data.length).to.be.above(0);
      expect(list.data.every((m) => m.owned_by === "openai" && m.object === "model")).to.equal(true);
      expect(list.data.map((m) => m.id))
        .to.include("gpt-4.1")
        .and.not.include("claude-sonnet-4-20250514");
    });

    it("retrieves a listed model, and answers 404 model_not_found for the rest", () => {
      expect(openAiModelById("gpt-4.1", keyed)).to.include({ id: "gpt-4.1", object: "model", owned_by: "openai" });
      // Unlisted (chat completions would still take it), not servable here, unknown.
      for (const id of ["gpt-4.1-2025-04-14", "claude-sonnet-4-20250514", "no-such-model"]) {
        try {
          openAiModelById(id, keyed);
          expect.fail(`${id} retrieved`);
        } catch (err) {
          expect(err).to.be.instanceOf(AppError);
          expect(err).to.include({ status: 404, code: "MODEL_NOT_FOUND" });
          expect((err as AppError).extra.param).to.equal("model");
        }
      }
    });
  });
});
