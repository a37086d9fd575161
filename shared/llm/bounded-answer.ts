import type OpenAI from "openai";
import { headOf, MODEL_OUTPUT_MAX_CHARS, TOOL_CALLS_MAX_PER_ANSWER, truncationMarker } from "../limits/outside-content";

type Message = OpenAI.Chat.Completions.ChatCompletionMessage;
type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;

/** A model answer within its bound, and what was cut when it was not. */
export interface BoundedAnswer {
  message: Message;
  /** The answer's characters as received and as kept; null when nothing was cut. */
  cut: { received: number; kept: number } | null;
}

/** The characters of a tool call that count in the answer's bound: its name and arguments. */
function callChars(call: ToolCall): number {
  return call.type === "function" ? call.function.name.length + call.function.arguments.length : 0;
}

/** The characters an answer holds: its text and its tool calls' names and arguments. */
function answerChars(message: Pick<Message, "content" | "tool_calls">): number {
  let chars = message.content?.length ?? 0;
  for (const call of message.tool_calls ?? []) chars += callChars(call);
  return chars;
}

/**
 * An answer within `MODEL_OUTPUT_MAX_CHARS` and `TOOL_CALLS_MAX_PER_ANSWER`: its text is cut
 * first (ending with the marker), then its tool calls' arguments get what room is left, and calls
 * past the room or the count are left out. `received`: the characters a stream had sent when its
 * reading stopped at the bound (more than the message kept).
 */
export function boundAnswer(message: Message, received = answerChars(message)): BoundedAnswer {
  const calls = message.tool_calls ?? [];
  const total = Math.max(received, answerChars(message));
  if (total <= MODEL_OUTPUT_MAX_CHARS && calls.length <= TOOL_CALLS_MAX_PER_ANSWER) return { message, cut: null };
  const text = message.content === null ? null : headOf(message.content, MODEL_OUTPUT_MAX_CHARS);
  let room = MODEL_OUTPUT_MAX_CHARS - (text?.length ?? 0);
  // The marker gives the whole answer's size: a stream's text may have been cut before it was held.
  const content = text !== null && text !== message.content ? text + truncationMarker(total, text.length) : text;
  const kept: ToolCall[] = [];
  for (const call of calls.slice(0, TOOL_CALLS_MAX_PER_ANSWER)) {
    if (call.type !== "function" || room <= call.function.name.length) break;
    const args = headOf(call.function.arguments, room - call.function.name.length);
    kept.push({ ...call, function: { name: call.function.name, arguments: args } });
    room -= call.function.name.length + args.length;
  }
  const { tool_calls: _all, ...rest } = message;
  const bounded: Message = { ...rest, content, ...(kept.length ? { tool_calls: kept } : {}) };
  return { message: bounded, cut: { received: total, kept: MODEL_OUTPUT_MAX_CHARS - room } };
}
