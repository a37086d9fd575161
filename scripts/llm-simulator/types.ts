/**
 * Shapes the simulator reads and writes. Request types are deliberately loose: bodies come from
 * arbitrary clients, so every consumer still checks values at runtime before trusting them.
 */

/** A JSON Schema node (tool `parameters`, `response_format.json_schema.schema`). */
export type JsonSchema = boolean | { [keyword: string]: unknown };

/** One part of a multi-part message `content` (`text`, `image_url`, `input_audio`, ...). */
interface ContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface FunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
}

type ToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name?: string; schema?: JsonSchema; strict?: boolean } };

/** The subset of a Chat Completions request that influences the simulated answer. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ResponseFormat;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  n?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
}

/** The `sim_*` body fields, validated. */
export interface SimControls {
  /** Total time to spend before the answer is complete. */
  latencyMs: number;
  /** HTTP status to fail with. */
  error?: number;
  /** With `error`: how many identical requests fail before they start succeeding. */
  errorTimes?: number;
  /** With `error`: fail only requests for this model (a model that is down), answer the others. */
  errorModel?: string;
  /** With `error`: the wait to ask for in `Retry-After` / `retry-after-ms`. */
  retryAfterMs?: number;
  /** Exact answer text to use instead of the generated one. */
  reply?: string;
  /** Tool name → the arguments object a call of that tool carries, instead of sampled ones. */
  toolArguments?: Record<string, Record<string, unknown>>;
}

type FinishReason = "stop" | "length" | "tool_calls";

/** The simulated assistant turn, independent of how it is sent (JSON or SSE). */
export interface Reply {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  promptTokens: number;
  completionTokens: number;
  /** OpenAI's `logprobs` of the answer, when the request asked for them. */
  logprobs?: { content: unknown[]; refusal: null };
}

/**
 * A scripted answer: requests whose user, system or tool text contains `contains` are answered
 * with `reply`, fail with the HTTP status `error`, and take `latency_ms` to answer, as a request's
 * own `sim_reply`, `sim_error` and `sim_latency_ms` would make them (which win when it has them).
 * Scripts reach requests a client cannot add `sim_*` fields to (those the service builds itself,
 * or an OpenAI-compatible endpoint's).
 */
export interface ScriptedReply {
  contains: string;
  reply?: string;
  error?: number;
  latency_ms?: number;
}

/** One chat request as recorded for tests. */
export interface JournalEntry {
  /** When the request arrived (ISO 8601). */
  at: string;
  /** The parsed request body (the raw text when it was not valid JSON). */
  body: unknown;
  /** The HTTP status the simulator answered with. */
  status: number;
}
