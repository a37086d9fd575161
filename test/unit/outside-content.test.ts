import { expect } from "chai";
import type OpenAI from "openai";
import {
  boundText,
  headOf,
  MODEL_OUTPUT_MAX_CHARS,
  TOOL_CALLS_MAX_PER_ANSWER,
} from "../../shared/limits/outside-content";
import { boundAnswer } from "../../shared/llm/bounded-answer";
import { StreamAccumulator } from "../../shared/llm/stream-accumulator";
import { McpToolListBounds } from "../../workers/agents/mcp/mcp-tool-bounds";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** A streamed chunk carrying `content`, as a provider sends it. */
const chunk = (content: string): Chunk => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "m",
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

describe("outside content bounds", () => {
  it("cuts at a code point: a pair of surrogates is kept whole or left out", () => {
    expect(headOf("ab😀cd", 3)).to.equal("ab"); // 😀 is two UTF-16 units: the cut would split it
    expect(headOf("ab😀cd", 4)).to.equal("ab😀");
    expect(headOf("abc", 5)).to.equal("abc");
    const { text, cut } = boundText("x".repeat(9) + "😀", 10);
    expect(cut).to.deep.equal({ received: 11, kept: 9 });
    expect(text).to.equal(`${"x".repeat(9)}…[truncated: 11 characters, kept the first 9]`);
  });

  it("takes linear time over a huge text", () => {
    const huge = "a".repeat(50_000_000);
    const started = performance.now();
    const { cut } = boundText(huge, 100_000);
    expect(cut).to.deep.equal({ received: 50_000_000, kept: 100_000 });
    expect(performance.now() - started).to.be.below(200);
  });

  it("cuts a model answer's text with the marker, then its tool calls' arguments, and drops calls past the count", () => {
    const long = boundAnswer({ role: "assistant", content: "w".repeat(MODEL_OUTPUT_MAX_CHARS + 5), refusal: null });
    expect(long.cut).to.deep.equal({ received: MODEL_OUTPUT_MAX_CHARS + 5, kept: MODEL_OUTPUT_MAX_CHARS });
    expect(long.message.content).to.match(/…\[truncated: 600,005 characters, kept the first 600,000\]$/);
    const calls = Array.from({ length: TOOL_CALLS_MAX_PER_ANSWER + 3 }, (_, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name: "t", arguments: "{}" },
    }));
    const many = boundAnswer({ role: "assistant", content: null, refusal: null, tool_calls: calls });
    expect(many.message.tool_calls).to.have.length(TOOL_CALLS_MAX_PER_ANSWER);
    const within = { role: "assistant" as const, content: "fine", refusal: null };
    expect(boundAnswer(within)).to.deep.equal({ message: within, cut: null });
  });

  it("stops holding a streamed answer past its bound, counting what arrived", () => {
    const acc = new StreamAccumulator();
    const piece = "s".repeat(100_000);
    let chunks = 0;
    for (; chunks < 10 && !acc.full; chunks++) acc.add(chunk(piece));
    expect(chunks).to.equal(7); // 700,000 characters arrived before it was full
    acc.add(chunk(piece)); // a provider that goes on is not held
    expect(acc.received).to.equal(800_000);
    const { message, cut } = boundAnswer(acc.message(), acc.received);
    expect(cut).to.deep.equal({ received: 800_000, kept: MODEL_OUTPUT_MAX_CHARS });
    expect(message.content!.startsWith("s".repeat(MODEL_OUTPUT_MAX_CHARS) + "…[truncated: 800,000")).to.equal(true);
  });

  it("leaves out an MCP tool whose schema is nested 20,000 deep instead of overflowing the stack, and offers the next", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 20_000; i++) deep = { type: "object", properties: { x: deep } };
    const bounds = new McpToolListBounds();
    expect(bounds.admit({ name: "deep", inputSchema: deep }, "A tool nested too deep.")).to.equal(null);
    expect(bounds.admit({ name: "plain", inputSchema: { type: "object" } }, "A plain tool.")).to.not.equal(null);
  });
});
