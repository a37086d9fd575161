import type OpenAI from "openai";
import { encode } from "gpt-tokenizer";
import { countInPieces } from "./token-pieces";

/** Tokens OpenAI counts for each message's framing, and for priming the reply. */
export const TOKENS_PER_MESSAGE = 4;
export const REPLY_PRIMING_TOKENS = 3;
/** What a low-detail image costs at OpenAI (and the simulator); providers reading more detail charge more. */
export const TOKENS_PER_IMAGE = 85;

/** A client's text may hold a special token's spelling (`<|endoftext|>`): it is counted as text, never refused. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Token count of a text, for providers that do not report usage; linear in its length (`tokenPieces`). */
export function countTokens(text: string): number {
  return text ? countInPieces(text, (piece) => encode(piece, PLAIN_TEXT).length) : 0;
}

/**
 * The most characters of one request (or answer) given to the tokenizer when billing what a
 * provider did not count: its time grows faster than the text on some inputs (long runs of one
 * character), and the text is a client's or a third party's.
 */
const TOKENIZED_CHARS = 4_096;

/**
 * Counts the texts of one request or answer in bounded, linear time: the tokenizer reads their
 * first `TOKENIZED_CHARS` characters in all, and the rest is counted at the tokens per character
 * it found (a third of a token per character before it has read any).
 */
class BoundedCount {
  private left = TOKENIZED_CHARS;
  private readChars = 0;
  private readTokens = 0;

  tokens(text: string): number {
    const read = Math.min(text.length, this.left);
    let tokens = 0;
    if (read > 0) {
      tokens = countTokens(text.slice(0, read));
      this.left -= read;
      this.readChars += read;
      this.readTokens += tokens;
    }
    const rest = text.length - read;
    const perChar = this.readChars ? this.readTokens / this.readChars : 1 / 3;
    return tokens + Math.ceil(rest * perChar);
  }
}

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * The prompt tokens of a request the provider did not count for us (it reports none, or the call
 * was cut off before it could): each message's text with the tokenizer (bounded, see
 * `BoundedCount`), an image at its fixed price (never its base64 as text), tool calls' names and
 * arguments, and the tools offered.
 */
export function promptTokens(messages: readonly Message[], tools: readonly unknown[] = []): number {
  const count = new BoundedCount();
  let tokens = REPLY_PRIMING_TOKENS + (tools.length ? count.tokens(JSON.stringify(tools)) : 0);
  for (const message of messages) {
    tokens += TOKENS_PER_MESSAGE;
    const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown };
    if (typeof content === "string") tokens += count.tokens(content);
    else if (Array.isArray(content)) {
      for (const part of content as { type?: string; text?: unknown }[]) {
        if (part?.type === "text" && typeof part.text === "string") tokens += count.tokens(part.text);
        else tokens += TOKENS_PER_IMAGE;
      }
    }
    if (Array.isArray(calls)) tokens += callTokens(calls, count);
  }
  return tokens;
}

/** The output tokens of an answer the provider did not count: its text and its tool calls. */
export function answerTokens(message: OpenAI.Chat.Completions.ChatCompletionMessage): number {
  const count = new BoundedCount();
  return count.tokens(message.content ?? "") + callTokens(message.tool_calls ?? [], count);
}

/** Tool calls' names and arguments. */
function callTokens(calls: readonly unknown[], count: BoundedCount): number {
  let tokens = 0;
  for (const call of calls as { function?: { name?: unknown; arguments?: unknown } }[]) {
    const { name, arguments: args } = call?.function ?? {};
    tokens += count.tokens(`${typeof name === "string" ? name : ""}${typeof args === "string" ? args : ""}`);
  }
  return tokens;
}
