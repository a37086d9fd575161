import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { countInPieces, tokenPieces } from "../../shared/llm/token-pieces";
import type { ChatMessage, ChatRequest } from "./types";

/** Fixed cost of any non-text content part (images, audio, files), like OpenAI's low-detail image. */
const NON_TEXT_PART_TOKENS = 85;

// Per-message framing (`<|start|>role ... <|end|>`) and reply priming, as in OpenAI's cookbook.
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
const REPLY_PRIMING_TOKENS = 3;

// User text may contain strings like "<|endoftext|>"; count them as plain text instead of throwing.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// System prompts and tool definitions repeat on every turn of a conversation, and BPE is the most
// expensive step of a request, so counts of recent strings are remembered (bounded in number and
// size so huge prompts cannot pin memory).
const CACHE_LIMIT = 2_000;
const CACHEABLE_LENGTH = 32_768;
const countCache = new Map<string, number>();

/** Tokens of one piece of text (see `tokenPieces`), as the encoding counts them. */
const pieceTokens = (piece: string) => encode(piece, PLAIN_TEXT).length;

/** Tokens of `text` in the o200k_base encoding, counted in linear time (`tokenPieces`). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const cached = countCache.get(text);
  if (cached !== undefined) return cached;
  const count = countInPieces(text, pieceTokens);
  if (text.length <= CACHEABLE_LENGTH) {
    if (countCache.size >= CACHE_LIMIT) countCache.clear();
    countCache.set(text, count);
  }
  return count;
}

/**
 * Cuts `text` to its longest prefix of at most `maxTokens` tokens; `tokens` is the size of what
 * is kept. The kept text is always an exact prefix, so streamed and non-streamed answers agree.
 */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; tokens: number; truncated: boolean } {
  // The common case fits; the cached count avoids another pass over the answer.
  const count = countTokens(text);
  if (count <= maxTokens) return { text, tokens: count, truncated: false };

  // Whole pieces while they fit, then the longest prefix of the next that does: linear in the
  // text, as the count is (a search over the whole text's prefixes would count it again and again).
  let kept = 0;
  let keptTokens = 0;
  for (const piece of tokenPieces(text)) {
    const tokens = pieceTokens(piece);
    if (keptTokens + tokens > maxTokens) {
      const part = longestPrefixWithin(piece, maxTokens - keptTokens);
      return { text: text.slice(0, kept + part.length), tokens: keptTokens + part.tokens, truncated: true };
    }
    kept += piece.length;
    keptTokens += tokens;
  }
  return { text, tokens: keptTokens, truncated: false };
}

/**
 * The longest prefix of one piece within `maxTokens`, by binary search over its code-point
 * boundaries rather than decode(tokens.slice(0, n)): the library's decode shares one streaming
 * TextDecoder, so a cut inside a multi-token character would leak its bytes into later, unrelated
 * decodes (and break determinism).
 */
function longestPrefixWithin(piece: string, maxTokens: number): { length: number; tokens: number } {
  const bounds = [0];
  for (const char of piece) bounds.push(bounds[bounds.length - 1] + char.length);
  let lo = 0; // bounds[lo] is known to fit
  let hi = bounds.length - 1; // bounds[hi] is known not to fit
  let loTokens = 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const tokens = pieceTokens(piece.slice(0, bounds[mid]));
    if (tokens <= maxTokens) {
      lo = mid;
      loTokens = tokens;
    } else hi = mid;
  }
  return { length: bounds[lo], tokens: loTokens };
}

function contentTokens(content: ChatMessage["content"]): number {
  if (typeof content === "string") return countTokens(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content) {
    if (part && part.type === "text" && typeof part.text === "string") total += countTokens(part.text);
    else total += NON_TEXT_PART_TOKENS;
  }
  return total;
}

function messageTokens(message: ChatMessage): number {
  let total = TOKENS_PER_MESSAGE + countTokens(String(message.role)) + contentTokens(message.content);
  if (typeof message.name === "string") total += TOKENS_PER_NAME + countTokens(message.name);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      total += countTokens(String(call?.function?.name ?? "")) + countTokens(String(call?.function?.arguments ?? ""));
    }
  }
  return total;
}

/**
 * Approximate prompt size the way OpenAI bills it: message framing + content, plus the tool
 * definitions and the structured-output schema, which the real API also injects into the prompt.
 */
export function countPromptTokens(request: ChatRequest): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of request.messages) total += messageTokens(message);
  if (Array.isArray(request.tools) && request.tools.length > 0) {
    total += countTokens(JSON.stringify(request.tools.map((tool) => tool?.function)));
  }
  const format = request.response_format;
  if (format && format.type === "json_schema") {
    total += countTokens(JSON.stringify(format.json_schema?.schema ?? {}));
  }
  return total;
}

/** Loads the BPE ranks up front so the first request is not slower than the others. */
export function warmTokenizer(): void {
  encode("warm up", PLAIN_TEXT);
}
