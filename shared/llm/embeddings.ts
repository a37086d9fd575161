import { setTimeout as sleep } from "node:timers/promises";
import pRetry from "p-retry";
import { config } from "../config";
import { countLlmRetry } from "../metrics/llm";
import { isRetryable, retryAfterMs, toLlmError } from "./chat";
import { clientFor } from "./client-cache";
import { LlmCallError } from "./llm-error";
import type { ResolvedModel } from "./providers";
import { abortReason, RunAbortedError } from "./run-aborted";

/** One embeddings call as the provider is sent it (the model is the resolved target's). */
export interface EmbeddingCall {
  input: string | string[] | number[] | number[][];
  dimensions?: number;
  user?: string;
}

/** What the provider answered: each input's vector as base64 of little-endian float32, in input order. */
export interface EmbeddingResult {
  embeddings: string[];
  model: string;
  /** The provider's count of the input tokens (null when it reports none). */
  inputTokens: number | null;
}

/** How many vectors a call's input asks for: one per text or per list of token ids. */
export function inputCount(input: EmbeddingCall["input"]): number {
  if (typeof input === "string") return 1;
  return input.length > 0 && typeof input[0] === "number" ? 1 : input.length;
}

/** The vectors of an answer in input order, each checked to be base64 (what was asked) of one vector per input. */
function vectorsOf(data: { index: number; embedding: unknown }[], expected: number, target: ResolvedModel): string[] {
  const vectors = new Array<string>(expected);
  for (const item of data) {
    if (!Number.isInteger(item.index) || item.index < 0 || item.index >= expected || typeof item.embedding !== "string")
      break;
    vectors[item.index] = item.embedding;
  }
  if (data.length !== expected || vectors.some((v) => v === undefined))
    throw new LlmCallError(
      `${target.provider} answered ${data.length} embeddings in an unexpected shape for ${expected} inputs`,
      null,
      target.provider,
      target.model,
      false,
    );
  return vectors;
}

/**
 * One embeddings call with the chat calls' capped retries (429, 5xx, timeouts, lost connections,
 * honouring Retry-After up to a cap). The vectors are asked for as base64, so they are stored
 * exactly and compactly whatever the client wants. An aborted signal ends the call with
 * `RunAbortedError`.
 */
export async function createEmbeddings(
  target: ResolvedModel,
  call: EmbeddingCall,
  options: { signal?: AbortSignal; beforeRetry?: () => Promise<void> } = {},
): Promise<EmbeddingResult> {
  const { signal } = options;
  let attempts = 0;
  const once = async (): Promise<EmbeddingResult> => {
    if (attempts++ > 0) await options.beforeRetry?.();
    const body = { ...call, model: target.model, encoding_format: "base64" as const };
    const answer = await clientFor(target).embeddings.create(body, { signal });
    const embeddings = vectorsOf(answer.data ?? [], inputCount(call.input), target);
    return { embeddings, model: answer.model ?? target.model, inputTokens: answer.usage?.prompt_tokens ?? null };
  };
  try {
    return await pRetry(once, {
      retries: config.llm.maxRetries,
      minTimeout: config.llm.retryBaseMs,
      maxTimeout: config.llm.retryMaxDelayMs,
      randomize: true,
      signal,
      shouldRetry: ({ error }) => !signal?.aborted && isRetryable(error),
      onFailedAttempt: async ({ error, retriesLeft }) => {
        const retried = retriesLeft > 0 && !signal?.aborted && isRetryable(error);
        if (retried) countLlmRetry(target.provider);
        const wait = retried ? retryAfterMs(error) : 0;
        if (wait > 0) await sleep(wait, undefined, { signal });
      },
    });
  } catch (err) {
    if (signal?.aborted) throw new RunAbortedError(abortReason(signal));
    throw toLlmError(err, target, attempts);
  }
}
