import { expect } from "chai";
import { accumulateResponse } from "openai/lib/responses/ResponseAccumulator";
import type OpenAI from "openai";
import { conversationAfter } from "../../api/runs/responses/response-input";
import { responseAsChat, type ResponseCreateBody } from "../../api/runs/responses/response-request";
import { responseStreamFormat, streamAfter } from "../../api/runs/responses/response-stream";
import type { Frame } from "../../api/reply";
import { responseCreateSchema } from "../../api/schemas/response.schema";
import { validateRequest } from "../../api/schemas/validate-request";
import type { ChatRunOutput } from "../../shared/contracts/chat-run";
import type { Run } from "../../shared/db/entities/run.entity";
import { AppError } from "../../shared/errors";
import type { RunEvent } from "../../shared/queues/run-events";
import {
  presentResponse,
  responseIdOf,
  runIdOfResponse,
  type ResponseRunRow,
} from "../../shared/runs/presenters/response.presenter";

const RUN_ID = "0192f3c4-1111-7222-8333-444455556666";

/** A body as the route hands it on: validated by its schema (a schema refusal is thrown). */
function body(fields: Record<string, unknown>): ResponseCreateBody {
  const { value, error } = validateRequest(responseCreateSchema, { model: "gpt-4.1", ...fields });
  if (error) throw error;
  return value as ResponseCreateBody;
}

/** The schema's refusal of a body: the first problem's message and path. */
function schemaRefusal(fields: Record<string, unknown>): { message: string; path: string } {
  const { error } = validateRequest(responseCreateSchema, { model: "gpt-4.1", ...fields });
  expect(error, "a schema refusal").to.exist;
  return { message: error!.details[0].message, path: error!.details[0].path.join(".") };
}

/** The 400 the translation refuses with. */
function refusal(fields: Record<string, unknown>): { message: string; param: unknown } {
  try {
    responseAsChat(body(fields), []);
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).status).to.equal(400);
    return { message: (err as AppError).message, param: (err as AppError).extra.param };
  }
  throw new Error("expected a refusal");
}

describe("Responses API", () => {
  describe("a Responses request as a chat call (responseAsChat)", () => {
    it("maps instructions, a string input, function tools, tool_choice, text.format and the options", () => {
      const { chat, settings } = responseAsChat(
        body({
          instructions: "Be brief.",
          input: "Weather in Paris?",
          tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: { type: "object" } }],
          tool_choice: { type: "function", name: "get_weather" },
          parallel_tool_calls: false,
          text: { format: { type: "json_schema", name: "w", schema: { type: "object" }, strict: true } },
          temperature: 0.2,
          top_p: 0.9,
          max_output_tokens: 300,
          reasoning: { effort: "low" },
          metadata: { topic: "weather" },
          user: "u-1",
        }),
        [],
      );
      expect(chat).to.deep.equal({
        model: "gpt-4.1",
        stream: false,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Weather in Paris?" },
        ],
        tools: [
          {
            type: "function",
            function: { name: "get_weather", description: "Weather", parameters: { type: "object" }, strict: true },
          },
        ],
        tool_choice: { type: "function", function: { name: "get_weather" } },
        parallel_tool_calls: false,
        response_format: { type: "json_schema", json_schema: { name: "w", schema: { type: "object" }, strict: true } },
        temperature: 0.2,
        top_p: 0.9,
        max_completion_tokens: 300,
        reasoning_effort: "low",
        user: "u-1",
      });
      expect(settings).to.include({
        instructions: "Be brief.",
        store: true,
        background: false,
        max_output_tokens: 300,
      });
      expect(settings.input).to.have.length(1);
      expect(settings.input[0]).to.include({ type: "message", role: "user", content: "Weather in Paris?" });
      expect(settings.input[0].id).to.match(/^msg_[0-9a-f]{24}_in0$/);
    });

    it("maps items: images, function_call items joined to the assistant turn, function_call_output as tool messages", () => {
      const { chat } = responseAsChat(
        body({
          input: [
            { role: "developer", content: [{ type: "input_text", text: "Use tools." }] },
            {
              type: "message",
              role: "user",
              content: [
                { type: "input_text", text: "What is here?" },
                { type: "input_image", image_url: "https://example.com/a.png", detail: "low" },
              ],
            },
            { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look." }] },
            { type: "function_call", call_id: "call_1", name: "look", arguments: '{"a":1}' },
            { type: "function_call", call_id: "call_2", name: "look", arguments: '{"a":2}' },
            { type: "function_call_output", call_id: "call_1", output: "a cat" },
            { type: "function_call_output", call_id: "call_2", output: [{ type: "input_text", text: "a dog" }] },
          ],
        }),
        [{ role: "user", content: "earlier" }],
      );
      expect(chat.messages).to.deep.equal([
        { role: "user", content: "earlier" },
        { role: "developer", content: "Use tools." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is here?" },
            { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
          ],
        },
        {
          role: "assistant",
          content: "Let me look.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "look", arguments: '{"a":1}' } },
            { id: "call_2", type: "function", function: { name: "look", arguments: '{"a":2}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "a cat" },
        { role: "tool", tool_call_id: "call_2", content: "a dog" },
      ]);
    });

    it("refuses what it cannot honour, naming the parameter and why", () => {
      expect(schemaRefusal({ input: "x", tools: [{ type: "web_search" }] })).to.deep.include({ path: "tools.0.type" });
      expect(schemaRefusal({ input: "x", tools: [{ type: "web_search" }] }).message).to.include("built-in tools");
      expect(schemaRefusal({ input: "x", conversation: "conv_1" }).message).to.include("keeps no conversations");
      expect(schemaRefusal({ input: "x", prompt: { id: "pmpt_1" } }).path).to.equal("prompt");
      expect(schemaRefusal({ input: "x", reasoning: { summary: "auto" } }).path).to.equal("reasoning.summary");
      expect(schemaRefusal({ input: "x", include: ["reasoning.encrypted_content"] }).path).to.equal("include");
      const file = schemaRefusal({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] });
      expect(file.message).to.include("input files and audio are not supported");
      expect(schemaRefusal({ input: [{ type: "item_reference", id: "msg_1" }] }).message).to.include("item_reference");
      expect(schemaRefusal({ input: "x", truncation: "auto" }).path).to.equal("truncation");
      expect(schemaRefusal({ input: "x", surprise: 1 }).path).to.equal("surprise");
      const keys = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
      expect(schemaRefusal({ input: "x", metadata: keys }).path).to.equal("metadata");
      expect(schemaRefusal({ input: "x", metadata: { k: "v".repeat(513) } }).path).to.equal("metadata.k");
      expect(schemaRefusal({ input: Array.from({ length: 1_001 }, () => "x") }).path).to.equal("input");
      expect(refusal({ input: "x", background: true, store: false })).to.deep.equal({
        message: "Background responses must be stored: store must not be false.",
        param: "background",
      });
      expect(refusal({ input: "x", tools: [], tool_choice: { type: "function", name: "f" } }).param).to.equal(
        "tool_choice.name",
      );
      expect(refusal({ input: [] }).param).to.equal("input");
      const image = refusal({
        input: [{ role: "assistant", content: [{ type: "input_image", image_url: "https://e.com/a.png" }] }],
      });
      expect(image.param).to.equal("input[0].content");
    });

    it("continues a response: its messages without its instructions, then its answer (text and calls)", () => {
      const earlier = responseAsChat(body({ instructions: "Old rules.", input: "Hi" }), []);
      const output: ChatRunOutput = {
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            logprobs: null,
            message: {
              role: "assistant",
              content: null,
              refusal: null,
              tool_calls: [{ id: "call_9", type: "function", function: { name: "f", arguments: "{}" } }],
            },
          },
        ],
      };
      const request = { ...earlier.chat, options: {}, max_tokens: 10, response: earlier.settings };
      expect(conversationAfter(request, output)).to.deep.equal([
        { role: "user", content: "Hi" },
        { role: "assistant", content: null, tool_calls: output.choices[0].message.tool_calls },
      ]);
    });
  });

  describe("the response object (presentResponse)", () => {
    const { chat, settings } = responseAsChat(body({ input: "Hi", metadata: { a: "b" } }), []);
    const row = (fields: Partial<ResponseRunRow>): ResponseRunRow => ({
      id: RUN_ID,
      status: "succeeded",
      request: { ...chat, options: {}, max_tokens: 100, response: settings },
      output: null,
      usage: null,
      error: null,
      queued_at: new Date("2026-01-01T00:00:00Z"),
      finished_at: new Date("2026-01-01T00:00:05Z"),
      ...fields,
    });
    const answer = (message: ChatRunOutput["choices"][0]["message"], finish_reason = "stop"): ChatRunOutput => ({
      system_fingerprint: null,
      choices: [{ index: 0, message, finish_reason: finish_reason as "stop", logprobs: null }],
    });

    it("names the run: resp_ and its hex, read back to the run id; other ids name none", () => {
      expect(responseIdOf(RUN_ID)).to.equal("resp_0192f3c4111172228333444455556666");
      expect(runIdOfResponse(responseIdOf(RUN_ID))).to.equal(RUN_ID);
      expect(runIdOfResponse("resp_xyz")).to.equal(null);
      expect(runIdOfResponse(RUN_ID)).to.equal(null);
    });

    it("shows a completed answer: a message item, function_call items, usage, and the settings", () => {
      const calls = [{ id: "call_1", type: "function" as const, function: { name: "f", arguments: '{"x":1}' } }];
      const usage = { input_tokens: 5, output_tokens: 7, total_tokens: 12, img_cost: 0, mcp_cost: 0, total_cost: 0.1 };
      const shown = presentResponse(
        row({ output: answer({ role: "assistant", content: "Hello", refusal: null, tool_calls: calls }), usage }),
      );
      expect(shown).to.deep.include({
        id: responseIdOf(RUN_ID),
        object: "response",
        status: "completed",
        created_at: 1767225600,
        completed_at: 1767225605,
        model: "gpt-4.1",
        metadata: { a: "b" },
        error: null,
        incomplete_details: null,
        store: true,
        background: false,
      });
      expect(shown.output).to.deep.equal([
        {
          type: "message",
          id: `msg_${RUN_ID.replace(/-/g, "")}`,
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Hello", annotations: [], logprobs: [] }],
        },
        {
          type: "function_call",
          id: `fc_${RUN_ID.replace(/-/g, "")}_0`,
          call_id: "call_1",
          name: "f",
          arguments: '{"x":1}',
          status: "completed",
        },
      ]);
      expect(shown.usage).to.include({ input_tokens: 5, output_tokens: 7, total_tokens: 12 });
    });

    it("shows queued, in_progress, failed, cancelled and a cut-short answer as incomplete", () => {
      expect(presentResponse(row({ status: "queued" })).status).to.equal("queued");
      expect(presentResponse(row({ status: "running" })).status).to.equal("in_progress");
      expect(presentResponse(row({ status: "cancelled" })).status).to.equal("cancelled");
      const failed = presentResponse(row({ status: "failed", error: { code: "LLM_ERROR", message: "boom" } }));
      expect(failed).to.deep.include({ status: "failed", error: { code: "server_error", message: "boom" } });
      const cut = presentResponse(
        row({ output: answer({ role: "assistant", content: "Hel", refusal: null }, "length") }),
      );
      expect(cut).to.deep.include({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    });
  });

  describe("the stream (responseStreamFormat)", () => {
    const { chat, settings } = responseAsChat(body({ input: "Hi" }), []);
    const request = { ...chat, options: {}, max_tokens: 100, response: settings };
    const usage = { input_tokens: 3, output_tokens: 4, total_tokens: 7 };
    const events: RunEvent[] = [
      { type: "start" },
      { type: "chunk", content: "Hel" },
      { type: "chunk", content: "lo" },
      { type: "tool_call_delta", choice: 0, index: 0, id: "call_1", name: "f", arguments: '{"x"' },
      { type: "tool_call_delta", choice: 0, index: 0, arguments: ":1}" },
      { type: "choice_end", choice: 0, finish_reason: "tool_calls", logprobs: null },
      { type: "finish", usage },
    ];
    const told = () => {
      const format = responseStreamFormat(RUN_ID, new Date(), request);
      return [{ data: format.metadata } as Frame, ...events.flatMap((e) => format.framesFor(e))];
    };
    const dataOf = (frames: Frame[]) => frames.map((f) => f.data as { type: string; sequence_number: number });

    it("tells OpenAI's events in order, numbered from 0, which the SDK's accumulator turns into the response", () => {
      const data = dataOf(told());
      expect(data.map((d) => d.type)).to.deep.equal([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
      ]);
      expect(data.map((d) => d.sequence_number)).to.deep.equal(data.map((_, i) => i));
      let snapshot: OpenAI.Responses.Response | undefined;
      for (const event of data) snapshot = accumulateResponse(event as OpenAI.Responses.ResponseStreamEvent, snapshot);
      const final = (data.at(-1) as unknown as { response: { output: unknown[]; usage: unknown } }).response;
      expect(snapshot!.output).to.deep.equal(final.output);
      expect(final.output).to.have.length(2);
      expect(final.usage).to.include({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
    });

    it("numbers every replay the same, so starting_after resumes exactly", async () => {
      const [first, second] = [dataOf(told()), dataOf(told())];
      expect(second.map((d) => [d.type, d.sequence_number])).to.deep.equal(
        first.map((d) => [d.type, d.sequence_number]),
      );
      const frames = told();
      const resumed: Frame[] = [];
      const stream = streamAfter(async function* () {
        yield* frames;
      }, 5);
      for await (const frame of stream(new AbortController().signal)) resumed.push(frame);
      expect(dataOf(resumed).map((d) => d.sequence_number)).to.deep.equal(first.slice(6).map((d) => d.sequence_number));
    });

    it("ends a failed run with response.failed, a cut-short stream with an error event, a lost ending from the row", () => {
      const format = responseStreamFormat(RUN_ID, new Date(), request);
      const [failed] = format.framesFor({ type: "error", error: "boom" });
      expect(failed.data).to.deep.include({ type: "response.failed", sequence_number: 1 });
      expect((failed.data as { response: { error: unknown } }).response.error).to.deep.equal({
        code: "server_error",
        message: "boom",
      });
      expect(format.cutShort!("later", "run_in_progress").data).to.deep.include({
        type: "error",
        code: "run_in_progress",
      });
      const output: ChatRunOutput = {
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content: "Hi", refusal: null },
          },
        ],
      };
      const ending = format.endingOf({ output, usage } as unknown as Run);
      expect(ending.map((e) => e.type)).to.deep.equal(["chunk", "choice_end", "finish"]);
    });
  });
});
