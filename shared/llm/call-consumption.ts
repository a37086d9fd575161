import type OpenAI from "openai";

/**
 * What a provider call that ended without its answer had consumed, to be billed: the prompt it
 * was sent and the output it streamed before it was cut off (the provider's own counts when it
 * reported them, else counted with the tokenizer), and that partial answer.
 */
export interface CallConsumption {
  inputTokens: number;
  outputTokens: number;
  message: OpenAI.Chat.Completions.ChatCompletionMessage | null;
}

/** The consumption an error of a cut-off call carries (`RunAbortedError`, `LlmCallError`), if any. */
export function consumptionOf(err: unknown): CallConsumption | undefined {
  if (!err || typeof err !== "object") return undefined;
  return (err as { consumed?: CallConsumption }).consumed;
}
