import OpenAI from "openai";
import { setTimeout as sleep } from "node:timers/promises";
import pRetry from "p-retry";
import { config } from "../config";
import { clientFor } from "./client-cache";
import { countLlmRetry } from "../metrics/llm";
import { LlmCallError, scrubSecrets } from "./llm-error";
import type { ResolvedModel } from "./providers";
import type { CallConsumption } from "./call-consumption";
import { abortReason, RunAbortedError } from "./run-aborted";
import { boundAnswer } from "./bounded-answer";
import { headOf, MODEL_OUTPUT_MAX_CHARS } from "../limits/outside-content";
import { StreamAccumulator, type ChatDelta } from "./stream-accumulator";
import { chatRunChoice, newLogprobBudget } from "./chat-choices";
import { AnswerTooLargeError } from "./node-http-fetch";
import type { ChatRunChoice } from "../contracts/chat-run";
import { answerTokens, promptTokens } from "./tokens";

export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ChatRequest = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, "model"> &
  Record<string, unknown>;

/** The parts of a completion the runtime uses. */
export interface ChatResult {
  message: OpenAI.Chat.Completions.ChatCompletionMessage;
  finishReason: string;
  inputTokens: number;
  outputTokens: number;
  /** The answer's characters as received and as kept, when it was over `MODEL_OUTPUT_MAX_CHARS` and cut. */
  truncated?: { received: number; kept: number };
  /** Every answer the call asked for (`n`), each bounded, the first being `message`, with log probabilities when asked. */
  choices: ChatRunChoice[];
  systemFingerprint: string | null;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** When given, the call streams and each piece of text is passed here as it arrives. */
  onText?: (text: string) => void;
  /** When given, the call streams and each kept piece of every answer (text and tool calls) is passed here. */
  onDelta?: (delta: ChatDelta) => void;
  /** Waited for before each retry (the provider key's turn under its shared limits). */
  beforeRetry?: () => Promise<void>;
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/** An answer over `MODEL_ANSWER_MAX_BYTES`: the provider made it (and charges it), so asking again would pay twice. */
function isTooLarge(err: unknown): boolean {
  return err instanceof OpenAI.APIConnectionError && err.cause instanceof AnswerTooLargeError;
}

/** Whether a failed provider call is worth another attempt (429, 5xx, timeouts, lost connections). */
export function isRetryable(err: unknown): boolean {
  if (err instanceof OpenAI.APIUserAbortError || isTooLarge(err)) return false;
  if (err instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (err instanceof OpenAI.APIError)
    return err.status === undefined || RETRYABLE_STATUS.has(err.status) || err.status >= 500;
  return false;
}

/** Delay the provider asked for, in ms, capped so a hostile header cannot park a worker. */
export function retryAfterMs(err: unknown): number {
  if (!(err instanceof OpenAI.APIError) || !err.headers) return 0;
  const headers = err.headers as Headers;
  const ms = Number(headers.get?.("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return Math.min(ms, config.llm.retryMaxDelayMs);
  const seconds = Number(headers.get?.("retry-after"));
  if (Number.isFinite(seconds) && seconds > 0) return Math.min(seconds * 1_000, config.llm.retryMaxDelayMs);
  return 0;
}

/**
 * The error a run fails with: which provider and model, after how many attempts, and what the
 * last one got (an HTTP status, a timeout, or no answer at all).
 */
export function toLlmError(err: unknown, target: ResolvedModel, attempts: number): LlmCallError {
  if (err instanceof LlmCallError) return err;
  const status = err instanceof OpenAI.APIError && typeof err.status === "number" ? err.status : null;
  const raw = err instanceof Error ? err.message : String(err);
  const what = status
    ? `HTTP ${status}`
    : err instanceof OpenAI.APIConnectionTimeoutError
      ? `timed out after ${config.llm.timeoutMs / 1_000} s`
      : "no answer";
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  const failed = new LlmCallError(
    scrubSecrets(`${target.provider} model '${target.model}' failed${tries} (${what}): ${raw}`),
    status,
    target.provider,
    target.model,
    isRetryable(err),
  );
  failed.modelNotFound = status === 404 && err instanceof OpenAI.APIError && err.code === "model_not_found";
  return failed;
}

/** The output tokens of every answer a stream rebuilt (the provider's count, when it sent none). */
function everyAnswerTokens(acc: StreamAccumulator): number {
  return acc.choices().reduce((sum, c) => sum + answerTokens(c.message), 0);
}

/** What an answer too large to read consumed, at most: the prompt and every answer asked for at its output cap. */
function tooLargeConsumption(request: ChatRequest): { inputTokens: number; outputTokens: number } {
  const cap = Number(request.max_completion_tokens ?? request.max_tokens ?? 0);
  const answers = Number(request.n ?? 1) || 1;
  return { inputTokens: promptTokens(request.messages, request.tools), outputTokens: cap * answers };
}

/** What the attempt in flight has produced so far, for billing a call cut off part-way. */
interface Attempt {
  /** The request is with the provider (sent, its answer not yet all read). */
  inFlight: boolean;
  /** A streamed answer as far as it came. */
  stream?: StreamAccumulator;
}

/** What the attempt consumed, when it was with the provider: the prompt, and any output it streamed. */
function consumedBy(attempt: Attempt, request: ChatRequest): CallConsumption | undefined {
  if (!attempt.inFlight) return undefined;
  const acc = attempt.stream;
  const message = acc ? acc.message() : null;
  return {
    inputTokens: acc?.usage?.prompt_tokens ?? promptTokens(request.messages, request.tools),
    outputTokens: acc?.usage?.completion_tokens ?? (acc ? everyAnswerTokens(acc) : 0),
    message,
  };
}

async function once(
  target: ResolvedModel,
  request: ChatRequest,
  options: ChatOptions,
  emitted: { any: boolean },
  attempt: Attempt,
): Promise<ChatResult> {
  const client = clientFor(target);
  attempt.inFlight = true;
  attempt.stream = undefined;
  if (!options.onText && !options.onDelta) {
    const body = {
      ...request,
      model: target.model,
      stream: false,
    } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
    const completion = await client.chat.completions.create(body, { signal: options.signal });
    attempt.inFlight = false;
    const choice = completion.choices[0];
    if (!choice)
      throw new LlmCallError(`${target.provider} returned no choices`, null, target.provider, target.model, false);
    const { message, cut } = boundAnswer(choice.message);
    const budget = newLogprobBudget();
    return {
      message,
      finishReason: cut ? "length" : choice.finish_reason,
      inputTokens: completion.usage?.prompt_tokens ?? promptTokens(request.messages, request.tools),
      // The provider's count is what it charges, cut or not; without one, every whole answer counts.
      outputTokens:
        completion.usage?.completion_tokens ?? completion.choices.reduce((sum, c) => sum + answerTokens(c.message), 0),
      ...(cut ? { truncated: cut } : {}),
      choices: completion.choices.map((c) => chatRunChoice(c, budget)),
      systemFingerprint: completion.system_fingerprint ?? null,
    };
  }
  const body = {
    ...request,
    model: target.model,
    stream: true,
    stream_options: { include_usage: true },
  } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
  const stream = await client.chat.completions.create(body, { signal: options.signal });
  const { onDelta } = options;
  // A piece passed on has reached the client: the call is not retried after it.
  const passOn = onDelta
    ? (delta: ChatDelta) => {
        emitted.any = true;
        onDelta(delta);
      }
    : undefined;
  const acc = (attempt.stream = new StreamAccumulator(passOn));
  let sent = 0;
  for await (const chunk of stream) {
    // The client is sent what the answer keeps, not the character past its bound the accumulator holds.
    const text = headOf(acc.add(chunk), MODEL_OUTPUT_MAX_CHARS - sent);
    sent += text.length;
    if (text) {
      emitted.any = true;
      options.onText?.(text);
    }
    // An answer past its bound is not read on: leaving the loop closes the stream.
    if (acc.full) break;
  }
  attempt.inFlight = false;
  const { message, cut } = boundAnswer(acc.message(), acc.received);
  const budget = newLogprobBudget();
  return {
    message,
    finishReason: cut ? "length" : acc.finishReason,
    inputTokens: acc.usage?.prompt_tokens ?? promptTokens(request.messages, request.tools),
    // A stream left at the bound never sent its count: what was kept is counted, as a provider that counts nothing is.
    outputTokens: acc.usage?.completion_tokens ?? everyAnswerTokens(acc),
    ...(cut ? { truncated: cut } : {}),
    choices: acc.choices().map((c) => chatRunChoice(c, budget)),
    systemFingerprint: acc.systemFingerprint,
  };
}

/**
 * One chat completion with capped retries on 429, 5xx, timeouts and lost connections (honouring
 * Retry-After up to a cap); permanent errors (other 4xx) fail at once, and a streamed call is not
 * retried once text has reached the client. Token counts are the provider's; a provider that
 * reports none is counted with a local tokenizer. An aborted signal ends the call with
 * `RunAbortedError`. A call that ends without its answer while an attempt is with the provider
 * (cut off by the signal, or a stream failing part-way) carries what that attempt consumed
 * (`consumed`), to be billed; attempts the provider refused, or abandoned and retried, are not.
 */
export async function chatCompletion(
  target: ResolvedModel,
  request: ChatRequest,
  options: ChatOptions = {},
): Promise<ChatResult> {
  const emitted = { any: false };
  const { signal } = options;
  let attempts = 0;
  let lastFailure: unknown;
  const attempt: Attempt = { inFlight: false };
  try {
    const retrying = (error: unknown) => !emitted.any && !signal?.aborted && isRetryable(error);
    const tryOnce = async () => {
      if (attempts++ > 0) await options.beforeRetry?.();
      return once(target, request, options, emitted, attempt);
    };
    return await pRetry(tryOnce, {
      retries: config.llm.maxRetries,
      minTimeout: config.llm.retryBaseMs,
      maxTimeout: config.llm.retryMaxDelayMs,
      randomize: true,
      signal,
      shouldRetry: ({ error }) => retrying(error),
      onFailedAttempt: async ({ error, retriesLeft }) => {
        // The signal cutting an attempt off is not the provider's answer: the last failure stays the one before.
        if (!signal?.aborted) lastFailure = error;
        // A refused or abandoned attempt is not billed; only the last one, if it was cut off, is.
        if (!signal?.aborted && !emitted.any) attempt.inFlight = false;
        // Called for every failure, the last and the permanent ones too: only wait before a retry.
        const retried = retriesLeft > 0 && retrying(error);
        if (retried) countLlmRetry(target.provider);
        const wait = retried ? retryAfterMs(error) : 0;
        // The run's deadline or cancellation cuts the wait short.
        if (wait > 0) await sleep(wait, undefined, { signal });
      },
    });
  } catch (err) {
    const consumed = consumedBy(attempt, request);
    if (signal?.aborted)
      throw new RunAbortedError(
        abortReason(signal),
        lastFailure === undefined ? undefined : toLlmError(lastFailure, target, attempts),
        consumed,
      );
    const failure = toLlmError(err, target, attempts);
    if (emitted.any) failure.consumed = consumed;
    // Made whole and left unread: billed as the most it could have been, every answer at its cap.
    if (isTooLarge(err)) failure.consumed = { ...tooLargeConsumption(request), message: null };
    throw failure;
  }
}
