import type { ChatRunChoice, ChatRunOutput, ChatRunUsage } from "../../contracts/chat-run";
import type { ResponseRunRequest } from "../../contracts/response-run";
import type { RunError, RunStatus } from "../../db/entities/run.entity";

/** What a response is shown from: its run's row (a `response` run). */
export interface ResponseRunRow {
  id: string;
  status: RunStatus;
  request: Omit<ResponseRunRequest, "budget">;
  output: ChatRunOutput | null;
  usage: ChatRunUsage | null;
  error: RunError | null;
  queued_at: Date;
  finished_at: Date | null;
}

/** OpenAI's response statuses. */
type ResponseStatus = "queued" | "in_progress" | "completed" | "failed" | "cancelled" | "incomplete";

/** The run id's hex: what every id of a response and its items is made from. */
const responseHex = (runId: string) => runId.replace(/-/g, "");

/** A response's id: `resp_` and its run's id without dashes. */
export const responseIdOf = (runId: string) => `resp_${responseHex(runId)}`;

/** The run id a response id names, or null when it is not one this service made. */
export function runIdOfResponse(responseId: string): string | null {
  const hex = /^resp_([0-9a-f]{32})$/.exec(responseId)?.[1];
  if (!hex) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the answer's message item (a response has at most one). */
export const messageItemId = (runId: string) => `msg_${responseHex(runId)}`;
/** The id of the answer's `index`th function call item. */
export const functionCallItemId = (runId: string, index: number) => `fc_${responseHex(runId)}_${index}`;

/** A message output item with one `output_text` (or `refusal`) part. */
export function messageItem(runId: string, text: string, status: "in_progress" | "completed", refusal?: string) {
  const part = refusal !== undefined ? refusalPart(refusal) : outputTextPart(text);
  return {
    type: "message",
    id: messageItemId(runId),
    status,
    role: "assistant",
    content: status === "completed" ? [part] : [],
  };
}

/** An `output_text` content part. */
export const outputTextPart = (text: string) => ({ type: "output_text", text, annotations: [], logprobs: [] });
const refusalPart = (refusal: string) => ({ type: "refusal", refusal });

/** A function call output item: the call the client is to run. */
export function functionCallItem(
  runId: string,
  index: number,
  call: { call_id: string; name: string; arguments: string },
  status: "in_progress" | "completed",
) {
  return { type: "function_call", id: functionCallItemId(runId, index), ...call, status };
}

/** OpenAI's response `usage`, from the run's metered usage. */
export function responseUsage(usage: ChatRunUsage | null) {
  const input = usage?.input_tokens ?? 0;
  const output = usage?.output_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** The output items of an answer: its text (or refusal) as a message, then its tool calls. */
function outputItems(runId: string, choice: ChatRunChoice | undefined) {
  if (!choice) return [];
  const { content, refusal, tool_calls: calls = [] } = choice.message;
  const message =
    refusal !== null && refusal !== undefined
      ? [messageItem(runId, "", "completed", refusal)]
      : content || calls.length === 0
        ? [messageItem(runId, content ?? "", "completed")]
        : [];
  const functionCalls = calls.map((call, i) =>
    functionCallItem(
      runId,
      i,
      { call_id: call.id, name: call.function.name, arguments: call.function.arguments },
      "completed",
    ),
  );
  return [...message, ...functionCalls];
}

/** Why an answer stopped short, in OpenAI's `incomplete_details`, or null when it ended of itself. */
export function incompleteDetails(finishReason: string | undefined) {
  if (finishReason === "length") return { reason: "max_output_tokens" as const };
  if (finishReason === "content_filter") return { reason: "content_filter" as const };
  return null;
}

const STATUS: Record<RunStatus, ResponseStatus> = {
  queued: "queued",
  running: "in_progress",
  awaiting_approval: "in_progress",
  succeeded: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

const seconds = (date: Date) => Math.floor(new Date(date).getTime() / 1_000);

/** What a response object is besides its request's settings: its state, output and usage. */
export interface ResponseState {
  status: ResponseStatus;
  output: unknown[];
  usage: ReturnType<typeof responseUsage> | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: "max_output_tokens" | "content_filter" } | null;
  completed_at: number | null;
}

/** OpenAI's `response` object: the run's identity and settings, in the given state. */
export function responseObject(
  runId: string,
  queuedAt: Date,
  request: Omit<ResponseRunRequest, "budget">,
  state: ResponseState,
) {
  const settings = request.response;
  return {
    id: responseIdOf(runId),
    object: "response",
    created_at: seconds(queuedAt),
    status: state.status,
    background: settings.background,
    completed_at: state.completed_at,
    error: state.error,
    incomplete_details: state.incomplete_details,
    instructions: settings.instructions,
    max_output_tokens: settings.max_output_tokens,
    metadata: settings.metadata ?? {},
    model: request.model,
    output: state.output,
    parallel_tool_calls: settings.parallel_tool_calls,
    previous_response_id: settings.previous_response_id,
    prompt_cache_key: settings.prompt_cache_key,
    reasoning: { effort: settings.reasoning_effort, summary: null },
    safety_identifier: settings.safety_identifier,
    service_tier: settings.service_tier,
    store: settings.store,
    temperature: settings.temperature,
    text: settings.text,
    tool_choice: settings.tool_choice,
    tools: settings.tools,
    top_p: settings.top_p,
    truncation: "disabled",
    usage: state.usage,
    user: settings.user,
  };
}

/** The state a run's row shows: a succeeded run's answer, a failed run's error, or where it is. */
function responseStateOf(run: ResponseRunRow): ResponseState {
  const base = { output: [], usage: null, error: null, incomplete_details: null, completed_at: null };
  if (run.status === "succeeded") {
    const choice = run.output?.choices[0];
    const incomplete = incompleteDetails(choice?.finish_reason);
    return {
      ...base,
      status: incomplete ? "incomplete" : "completed",
      output: outputItems(run.id, choice),
      usage: responseUsage(run.usage),
      incomplete_details: incomplete,
      completed_at: incomplete || !run.finished_at ? null : seconds(run.finished_at),
    };
  }
  if (run.status === "failed") {
    const error = { code: "server_error", message: run.error?.message ?? "The response failed" };
    return { ...base, status: "failed", error, usage: run.usage ? responseUsage(run.usage) : null };
  }
  return { ...base, status: STATUS[run.status], usage: run.usage ? responseUsage(run.usage) : null };
}

/** OpenAI's `response` object for a `response` run, in whatever state it is. */
export function presentResponse(run: ResponseRunRow) {
  return responseObject(run.id, run.queued_at, run.request, responseStateOf(run));
}
