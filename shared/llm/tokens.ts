import type OpenAI from "openai";
import { encode } from "gpt-tokenizer";

/** Tokens OpenAI counts for each message's framing, and for priming the reply. */
export const TOKENS_PER_MESSAGE = 4;
export const REPLY_PRIMING_TOKENS = 3;
/** What a low-detail image costs at OpenAI (and the simulator); providers reading more detail charge more. */
export const TOKENS_PER_IMAGE = 85;

/** Token count of a text, for providers that do not report usage. */
export function countTokens(text: string): number {
  return text ? encode(text).length : 0;
}

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * The prompt tokens of a request the provider did not count for us (it reports none, or the call
 * was cut off before it could): each message's text with the tokenizer, an image at its fixed
 * price (never its base64 as text), tool calls' names and arguments, and the tools offered.
 */
export function promptTokens(messages: readonly Message[], tools: readonly unknown[] = []): number {
  let tokens = REPLY_PRIMING_TOKENS + (tools.length ? countTokens(JSON.stringify(tools)) : 0);
  for (const message of messages) {
    tokens += TOKENS_PER_MESSAGE;
    const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown };
    if (typeof content === "string") tokens += countTokens(content);
    else if (Array.isArray(content)) {
      for (const part of content as { type?: string; text?: unknown }[]) {
        if (part?.type === "text" && typeof part.text === "string") tokens += countTokens(part.text);
        else tokens += TOKENS_PER_IMAGE;
      }
    }
    if (Array.isArray(calls)) tokens += answerCallTokens(calls);
  }
  return tokens;
}

/** The output tokens of an answer the provider did not count: its text and its tool calls. */
export function answerTokens(message: OpenAI.Chat.Completions.ChatCompletionMessage): number {
  return countTokens(message.content ?? "") + answerCallTokens(message.tool_calls ?? []);
}

function answerCallTokens(calls: readonly unknown[]): number {
  let tokens = 0;
  for (const call of calls as { function?: { name?: unknown; arguments?: unknown } }[]) {
    const { name, arguments: args } = call?.function ?? {};
    tokens += countTokens(`${typeof name === "string" ? name : ""}${typeof args === "string" ? args : ""}`);
  }
  return tokens;
}
