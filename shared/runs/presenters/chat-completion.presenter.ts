import type { ChatRunUsage } from "../../contracts/chat-run";
import type { ChatCompletionRun } from "../../db/entities/run.entity";

/** What every object of one chat completion shares: its id, creation time and the requested model. */
export interface ChatCompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** The completion's identity, from its run: `chatcmpl-` and the run id's hex, so a replay names the same one. */
export function chatIdentity(runId: string, queuedAt: Date, model: string): ChatCompletionIdentity {
  return { id: `chatcmpl-${runId.replace(/-/g, "")}`, created: Math.floor(queuedAt.getTime() / 1_000), model };
}

/** OpenAI's `usage`, from the run's metered usage (the numbers billed): every answer's tokens. */
export function chatUsage(usage: ChatRunUsage | null) {
  const prompt = usage?.input_tokens ?? 0;
  const completion = usage?.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** OpenAI's `chat.completion` object, from the succeeded chat run: every answer as the model gave it. */
export function presentChatCompletion(run: ChatCompletionRun) {
  return {
    ...chatIdentity(run.id, run.queued_at, run.request.model),
    object: "chat.completion",
    choices: run.output?.choices ?? [],
    usage: chatUsage(run.usage),
    system_fingerprint: run.output?.system_fingerprint ?? null,
  };
}
