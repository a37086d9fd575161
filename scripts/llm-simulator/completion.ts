import type { Reply } from "./types";

/** Fields shared by a completion and all of its stream chunks. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export const SYSTEM_FINGERPRINT = "fp_simulator";

// Ids only need to be unique; a per-boot prefix keeps them unique across restarts of a dev server.
const BOOT = Date.now().toString(36);
let sequence = 0;

/** Id and timestamp for a new completion. */
export function newCompletionMeta(model: string): CompletionMeta {
  sequence++;
  return { id: `chatcmpl-sim${BOOT}${sequence.toString(36)}`, created: Math.floor(Date.now() / 1000), model };
}

/** OpenAI's `usage` object, including the detail blocks some clients read unconditionally: the prompt once, every answer's output. */
export function usageOf(replies: Reply[]) {
  const prompt = replies[0]?.promptTokens ?? 0;
  const completion = replies.reduce((sum, reply) => sum + reply.completionTokens, 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The non-streamed `chat.completion` object for the replies (one per answer asked for). */
export function completionBody(meta: CompletionMeta, replies: Reply[]) {
  const choices = replies.map((reply, index) => {
    const message: Record<string, unknown> = {
      role: "assistant",
      content: reply.content,
      refusal: null,
      annotations: [],
    };
    // OpenAI omits tool_calls entirely (rather than sending []) when there are none.
    if (reply.toolCalls.length > 0) message.tool_calls = reply.toolCalls;
    return { index, message, logprobs: reply.logprobs ?? null, finish_reason: reply.finishReason };
  });
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices,
    usage: usageOf(replies),
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}
