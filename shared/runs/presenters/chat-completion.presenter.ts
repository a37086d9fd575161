import type { AgentUsage } from "../../contracts/agent-spec";
import type { AgentRun } from "../../db/entities/run.entity";

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

/** OpenAI's `usage`, from the run's metered usage. */
export function chatUsage(usage: AgentUsage | null) {
  const prompt = usage?.input_tokens ?? 0;
  const completion = usage?.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The answer's text: agents answer in text; anything else (structured output) is sent as its JSON. */
function answerText(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

/** OpenAI's `chat.completion` object, from the succeeded agent run. */
export function presentChatCompletion(run: AgentRun, model: string) {
  return {
    ...chatIdentity(run.id, run.queued_at, model),
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: answerText(run.output?.outputs.at(-1)?.content), refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: chatUsage(run.usage),
  };
}
