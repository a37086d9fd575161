import type OpenAI from "openai";
import type { AgentUsage, RunBudgetRequest } from "./agent-spec";

/** One message of a conversation as the model is sent it: OpenAI's chat message, as the client wrote it. */
export type ChatRunMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * What a chat-completion run (and a Responses API run) asks of the model: one call, passed to the
 * provider as the client wrote it. Tools are the client's: the model's tool calls are the answer,
 * never executed here.
 */
export interface ChatRunRequest {
  /** The model as the client named it (the provider is resolved from it). */
  model: string;
  messages: ChatRunMessage[];
  /**
   * The other fields passed to the provider as the client gave them (`tools`, `tool_choice`,
   * `parallel_tool_calls`, `response_format`, `n`, `stop`, `seed`, `logprobs`, `top_logprobs`,
   * `temperature`, `top_p`, `user`, … and the provider's documented extras), each on the
   * allow-list of provider options for the model. Never `model`, `messages`, `stream`,
   * `stream_options` or the output cap, which the service sets.
   */
  options: Record<string, unknown>;
  /** The most output tokens the call may produce (`max_completion_tokens`, else `max_tokens`, else the default). */
  max_tokens: number;
  /** Whether the client reads the answer as it is written (the worker streams the call). */
  stream: boolean;
  /** The spending limits of the key's tier, set by the service. */
  budget?: RunBudgetRequest;
}

/** An assistant message of a chat run's answer: text, a refusal, or the tool calls the client runs. */
export interface ChatRunMessageOut {
  role: "assistant";
  content: string | null;
  refusal: string | null;
  tool_calls?: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[];
}

/** One of the `n` answers of a chat run, in OpenAI's shape. */
export interface ChatRunChoice {
  index: number;
  message: ChatRunMessageOut;
  finish_reason: "stop" | "length" | "tool_calls" | "content_filter" | "function_call";
  logprobs: OpenAI.Chat.Completions.ChatCompletion.Choice.Logprobs | null;
}

/** What a chat run stores in `runs.output`. */
export interface ChatRunOutput {
  choices: ChatRunChoice[];
  system_fingerprint: string | null;
}

/** A chat run's `usage`: an agent run's (the same token prices and per-call charge). */
export type ChatRunUsage = AgentUsage;

/** How many answers a chat run asks for (`n`, 1 when not given): the budget, the call and the stream all read this. */
export function answersAsked(request: Pick<ChatRunRequest, "options">): number {
  const n = Number(request.options.n ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}
