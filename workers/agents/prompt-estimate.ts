import type { ChatMessage } from "../../shared/llm/chat";
import { REPLY_PRIMING_TOKENS, TOKENS_PER_IMAGE, TOKENS_PER_MESSAGE } from "../../shared/llm/tokens";

// English text runs about four UTF-8 bytes a token and most other text fewer; counting three keeps
// the estimate on the high side without a tokenizer pass over every prompt.
const BYTES_PER_TOKEN = 3;

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * A cheap estimate of the prompt tokens of a call, known before the provider answers, so a budget
 * can hold room for the prompt and not only for the answer: text and tool definitions by their
 * size, images at a fixed price.
 */
export function estimatePromptTokens(messages: ChatMessage[], tools: readonly unknown[] = []): number {
  let tokens = REPLY_PRIMING_TOKENS;
  let size = tools.length ? bytes(JSON.stringify(tools)) : 0;
  for (const message of messages) {
    tokens += TOKENS_PER_MESSAGE;
    const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown[] };
    if (typeof content === "string") size += bytes(content);
    else if (Array.isArray(content)) {
      for (const part of content as { type?: string; text?: unknown }[]) {
        if (part?.type === "text" && typeof part.text === "string") size += bytes(part.text);
        else tokens += TOKENS_PER_IMAGE;
      }
    }
    if (calls?.length) size += bytes(JSON.stringify(calls));
  }
  return tokens + Math.ceil(size / BYTES_PER_TOKEN);
}
