import type OpenAI from "openai";
import type { ChatRunChoice, ChatRunMessageOut } from "../contracts/chat-run";
import { boundAnswer } from "./bounded-answer";
import { LOGPROB_ENTRIES_MAX_PER_CALL, withinLogprobBudget } from "./stream-accumulator";

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

/** What is left of one call's log-probability budget (`LOGPROB_ENTRIES_MAX_PER_CALL`), shared by its answers. */
export const newLogprobBudget = () => ({ left: LOGPROB_ENTRIES_MAX_PER_CALL });

/** Log probabilities within what is left of the call's budget. */
function boundLogprobs(logprobs: Logprobs | undefined, budget: { left: number }): Logprobs {
  if (!logprobs) return null;
  const cut = (entries: OpenAI.Chat.Completions.ChatCompletionTokenLogprob[] | null | undefined) =>
    entries ? withinLogprobBudget(entries, budget) : null;
  return { content: cut(logprobs.content), refusal: cut(logprobs.refusal) };
}

/**
 * One answer of a completion as a chat run keeps it: its message within the answer's bound
 * (`boundAnswer`; `received`: what a stream had sent of it), `length` when it was cut, and its
 * log probabilities within what is left of the call's budget (`newLogprobBudget`).
 */
export function chatRunChoice(
  choice: { index: number; message: Message; finish_reason: string | null; logprobs?: Logprobs; received?: number },
  budget: { left: number },
): ChatRunChoice {
  const { received } = choice;
  const { message, cut } = boundAnswer(choice.message, received);
  return {
    index: choice.index,
    message: keptMessage(message),
    finish_reason: (cut ? "length" : (choice.finish_reason ?? "stop")) as ChatRunChoice["finish_reason"],
    logprobs: boundLogprobs(choice.logprobs, budget),
  };
}
