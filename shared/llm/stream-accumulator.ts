import type OpenAI from "openai";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Message = OpenAI.Chat.Completions.ChatCompletionMessage;

/** Rebuilds a complete assistant message (text and tool calls) from streamed chunks. */
export class StreamAccumulator {
  private content = "";
  private readonly toolCalls: { id: string; name: string; arguments: string }[] = [];
  finishReason = "stop";
  usage: OpenAI.CompletionUsage | undefined;

  /** Adds a chunk; returns the text it carried (empty when none). */
  add(chunk: Chunk): string {
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    for (const call of choice.delta.tool_calls ?? []) {
      const slot = (this.toolCalls[call.index] ??= { id: "", name: "", arguments: "" });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name += call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    }
    const text = choice.delta.content ?? "";
    this.content += text;
    return text;
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
