import type OpenAI from "openai";
import type { ChatRunChoice, ChatRunMessageOut } from "../contracts/chat-run";
import { boundAnswer } from "./bounded-answer";
import { LOGPROBS_MAX_PER_ANSWER } from "./stream-accumulator";

type Message = OpenAI.Chat.Completions.ChatCompletionMessage;
type Logprobs = ChatRunChoice["logprobs"];

/** The assistant message a chat run keeps: text, refusal and function calls (no audio, no annotations). */
function keptMessage(message: Message): ChatRunMessageOut {
  const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
  return {
    role: "assistant",
    content: message.content ?? null,
    refusal: message.refusal ?? null,
    ...(calls.length ? { tool_calls: calls } : {}),
  };
}

/** Log probabilities within `LOGPROBS_MAX_PER_ANSWER` entries per part. */
function boundLogprobs(logprobs: Logprobs | undefined): Logprobs {
  if (!logprobs) return null;
  const cut = (entries: OpenAI.Chat.Completions.ChatCompletionTokenLogprob[] | null | undefined) =>
    entries ? entries.slice(0, LOGPROBS_MAX_PER_ANSWER) : null;
  return { content: cut(logprobs.content), refusal: cut(logprobs.refusal) };
}

/**
 * One answer of a completion as a chat run keeps it: its message within the answer's bound
 * (`boundAnswer`; `received`: what a stream had sent of it), `length` when it was cut, and its
 * log probabilities, bounded.
 */
export function chatRunChoice(
  choice: { index: number; message: Message; finish_reason: string | null; logprobs?: Logprobs },
  received?: number,
): ChatRunChoice {
  const { message, cut } = boundAnswer(choice.message, received);
  return {
    index: choice.index,
    message: keptMessage(message),
    finish_reason: (cut ? "length" : (choice.finish_reason ?? "stop")) as ChatRunChoice["finish_reason"],
    logprobs: boundLogprobs(choice.logprobs),
  };
}
