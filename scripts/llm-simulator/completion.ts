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

/** OpenAI's `usage` object, including the detail blocks some clients read unconditionally. */
export function usageOf(reply: Reply) {
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The non-streamed `chat.completion` object for a reply. */
export function completionBody(meta: CompletionMeta, reply: Reply) {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.content,
    refusal: null,
    annotations: [],
  };
  // OpenAI omits tool_calls entirely (rather than sending []) when there are none.
  if (reply.toolCalls.length > 0) message.tool_calls = reply.toolCalls;
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage: usageOf(reply),
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}
