import type OpenAI from "openai";
import { headOf, MODEL_OUTPUT_MAX_CHARS, TOOL_CALLS_MAX_PER_ANSWER } from "../limits/outside-content";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Message = OpenAI.Chat.Completions.ChatCompletionMessage;

/**
 * Rebuilds a complete assistant message (text and tool calls) from streamed chunks. It keeps one
 * character past `MODEL_OUTPUT_MAX_CHARS` at most (enough for `boundAnswer` to see the answer was
 * over) and counts the rest as `received` without holding it: `full` says to stop reading.
 */
export class StreamAccumulator {
  private content = "";
  private readonly toolCalls: { id: string; name: string; arguments: string }[] = [];
  finishReason = "stop";
  usage: OpenAI.CompletionUsage | undefined;
  /** The characters of text, tool names and arguments received, kept or not. */
  received = 0;

  /** Whether the answer has gone past its bound: what comes after is not kept. */
  get full(): boolean {
    return this.received > MODEL_OUTPUT_MAX_CHARS;
  }

  /** Adds a chunk; returns the text it carried that was kept (empty when none). */
  add(chunk: Chunk): string {
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    for (const call of choice.delta.tool_calls ?? []) {
      // Tool calls past the bound's count are counted and dropped (the index is the provider's).
      if (call.index >= TOOL_CALLS_MAX_PER_ANSWER) {
        this.received += (call.function?.name?.length ?? 0) + (call.function?.arguments?.length ?? 0);
        continue;
      }
      const slot = (this.toolCalls[call.index] ??= { id: "", name: "", arguments: "" });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name += this.keep(call.function.name);
      if (call.function?.arguments) slot.arguments += this.keep(call.function.arguments);
    }
    const text = this.keep(choice.delta.content ?? "");
    this.content += text;
    return text;
  }

  /** The part of `piece` that fits in what is kept; all of it counts as received. */
  private keep(piece: string): string {
    const room = MODEL_OUTPUT_MAX_CHARS + 1 - this.received;
    this.received += piece.length;
    return room >= piece.length ? piece : headOf(piece, Math.max(0, room));
  }

  message(): Message {
    const calls = this.toolCalls.filter(Boolean);
    return {
      role: "assistant",
      content: calls.length && !this.content ? null : this.content,
      refusal: null,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function" as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    };
  }
}
