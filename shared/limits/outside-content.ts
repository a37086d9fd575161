/**
 * Bounds on content the service does not write itself: what MCP servers list and answer, what
 * built-in tools fetch, the arguments a model gives a tool, and the model's own answers. Each is
 * cut (or refused) before it is stored, counted or forwarded, so one hostile server, page or
 * gateway cannot fill a row, a worker's memory or the next prompt. Sizes are in JavaScript string
 * characters (UTF-16 units); docs/limits.md lists them.
 */

/**
 * One tool result (an MCP call's text, a delegated agent's answer): about 25,000 tokens, so a long
 * document or a big JSON listing fits whole, while it stays a fifth of a 128,000-token context window.
 */
export const TOOL_RESULT_MAX_CHARS = 100_000;

/**
 * The arguments of one tool call the model makes. Real ones are a few hundred characters, a file
 * a tool is to write a few tens of thousands; arguments over this are not run (cut JSON is not JSON).
 */
export const TOOL_ARGUMENTS_MAX_CHARS = 100_000;

/**
 * One model answer (its text, and its tool calls' names and arguments together): above what the
 * longest-writing models can produce (128,000 output tokens of about 4 characters is 512,000), so
 * only a provider that ignores `max_tokens` or a hostile gateway reaches it.
 */
export const MODEL_OUTPUT_MAX_CHARS = 600_000;

/**
 * A model's whole JSON answer as bytes, read before it can be cut: room for `MODEL_OUTPUT_MAX_CHARS`
 * written as JSON escapes (up to 6 bytes a character) and the answer's other fields; a larger one fails the call.
 */
export const MODEL_ANSWER_MAX_BYTES = 16_000_000;

/** Tool calls one model answer may make: as many as one request may offer tools (OpenAI's limit is 128). */
export const TOOL_CALLS_MAX_PER_ANSWER = 128;

/**
 * One answer of an MCP server (a JSON message or an event stream) as bytes: room for a tool result
 * many times `TOOL_RESULT_MAX_CHARS` (it is cut after it is read); a server sending more is not read on.
 */
export const MCP_RESPONSE_MAX_BYTES = 16_000_000;

/** Tools an agent's MCP servers may offer together: OpenAI refuses a request with more than 128. */
export const MCP_TOOLS_MAX = 128;

/**
 * Tools read from one server's `tools/list` before listing stops: room for tools a client disables
 * by name (`tool_configurations`) ahead of those it keeps, without holding an endless list.
 */
export const MCP_TOOLS_LISTED_MAX = 1_000;

/** One MCP tool's description: real ones are a sentence or a paragraph; longer ones are cut. */
export const MCP_TOOL_DESCRIPTION_MAX_CHARS = 4_000;

/**
 * One MCP tool's input schema, as JSON: rich real schemas take a few thousand characters. A schema
 * over it is not offered at all, since a cut schema is not a schema.
 */
export const MCP_TOOL_SCHEMA_MAX_CHARS = 16_000;

/**
 * All of an agent's MCP tools together (names, descriptions, schemas as JSON): about 50,000 tokens,
 * sent with every call, so the tools leave most of a 128,000-token window to the conversation.
 */
export const MCP_TOOLS_TOTAL_MAX_CHARS = 200_000;

/** A search result's title: a headline, even a long one, is a few hundred characters. */
export const SEARCH_HIT_TITLE_MAX_CHARS = 1_000;

/** A search result's URL: longer ones are left out (a cut URL leads nowhere); browsers handle about this much. */
export const SEARCH_HIT_URL_MAX_CHARS = 8_000;

/** Something the service cut, as a run's answer lists it under `truncated`. */
export interface Truncation {
  /** What was cut: a tool's result, a tool call's arguments, a model's answer, or an MCP server's tool list. */
  what: "tool_result" | "tool_arguments" | "model_output" | "tool_list";
  /** The agent whose turn it was. */
  agent: string;
  /** The tool (for a tool list, the MCP server's URL). */
  source?: string;
  /** Its size as received (for a tool list, the tools read before listing stopped). */
  received: number;
  /** How much of it was kept. */
  kept: number;
  unit: "characters" | "tools";
}

/** A text within a bound, and what was cut when it was not. */
export interface BoundedText {
  text: string;
  /** The text's length and how many characters were kept; null when nothing was cut. */
  cut: { received: number; kept: number } | null;
}

/** The first at most `max` characters of `text`, never ending inside a surrogate pair. */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  // A high surrogate at the end would be half a character; the pair is left out whole.
  const end = max > 0 && code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}

/** The marker a cut text ends with, which the model and the user read. */
export function truncationMarker(received: number, kept: number): string {
  return `…[truncated: ${received.toLocaleString("en-US")} characters, kept the first ${kept.toLocaleString("en-US")}]`;
}

/**
 * `text` within `max` characters: a longer one keeps its first characters (cut at a code point)
 * and ends with {@link truncationMarker}. Linear in the part kept.
 */
export function boundText(text: string, max: number): BoundedText {
  if (text.length <= max) return { text, cut: null };
  const head = headOf(text, max);
  return { text: head + truncationMarker(text.length, head.length), cut: { received: text.length, kept: head.length } };
}
