import type OpenAI from "openai";
import { chatCompletion, type ChatRequest, type ChatResult } from "../../shared/llm/chat";
import { tokenCosts } from "../../shared/llm/pricing";
import type { ResolvedModel } from "../../shared/llm/providers";
import { RunAbortedError } from "../../shared/llm/run-aborted";
import { upstreamCost } from "../../shared/llm/upstream-prices";
import { countLlmCall } from "../../shared/metrics/llm";
import { secondsSince } from "../../shared/metrics/registry";
import type { AgentContext } from "./agent-context";
import { withLlmSlot } from "./llm-slots";
import type { CallAllowance } from "./run-budget";
import { recordCaller } from "./run-charges";
import type { StepMeta, StepRecorder } from "./step-recorder";

/** What an assistant turn is stored as: its text and any tool calls. */
export type AssistantMessage = {
  content: string | null;
  tool_calls?: OpenAI.Chat.Completions.ChatCompletionMessageToolCall[];
};

/** Makes one LLM call and counts it in the worker's metrics (`apiary_llm_*`), whatever its end. */
async function countedCall(target: ResolvedModel, call: () => Promise<ChatResult>): Promise<ChatResult> {
  const start = performance.now();
  const labels = { provider: target.provider, model: target.model };
  try {
    const reply = await call();
    const { inputCost, outputCost } = tokenCosts(reply.inputTokens, reply.outputTokens);
    countLlmCall({
      ...labels,
      seconds: secondsSince(start),
      outcome: "ok",
      inputTokens: reply.inputTokens,
      outputTokens: reply.outputTokens,
      cost: inputCost + outputCost,
    });
    return reply;
  } catch (err) {
    countLlmCall({
      ...labels,
      seconds: secondsSince(start),
      outcome: err instanceof RunAbortedError ? "aborted" : "error",
    });
    throw err;
  }
}

/**
 * One LLM call as a recorded step (replayed from Postgres on a retried job), charged to the run's
 * budget and usage under `meta.agentName` (with the agent's per-agent charge on its first call).
 * The caller reserves the call's `allowance` from the budget before building `request` (its output
 * cap, and `callerCharge` as its `charge`); a call that fails gives it back, a call
 * whose run is cancelled while it waits for a slot under `LLM_MAX_IN_FLIGHT` too.
 */
export async function recordedLlmCall(
  ctx: Pick<AgentContext, "budget" | "usage" | "signal">,
  recorder: StepRecorder,
  meta: StepMeta,
  target: ResolvedModel,
  request: ChatRequest,
  allowance: CallAllowance,
  onText?: (text: string) => void,
): Promise<{ message: AssistantMessage; replayed: boolean }> {
  let outcome;
  try {
    outcome = await recorder.step(meta, async () => {
      // A replayed step never gets here, so it takes no slot of the process's LLM_MAX_IN_FLIGHT.
      const reply = await withLlmSlot(ctx.signal, () =>
        countedCall(target, () => chatCompletion(target, request, { signal: ctx.signal, onText })),
      );
      const { inputCost, outputCost } = tokenCosts(reply.inputTokens, reply.outputTokens);
      const output: AssistantMessage = {
        content: reply.message.content ?? null,
        ...(reply.message.tool_calls?.length ? { tool_calls: reply.message.tool_calls } : {}),
      };
      return {
        output,
        inputTokens: reply.inputTokens,
        outputTokens: reply.outputTokens,
        cost: inputCost + outputCost,
        provider: target.provider,
        upstreamCost: () => upstreamCost(target.model, target.provider, reply.inputTokens, reply.outputTokens),
      };
    });
  } catch (err) {
    ctx.budget.release(allowance);
    throw err;
  }
  ctx.usage.inputTokens += outcome.inputTokens;
  ctx.usage.outputTokens += outcome.outputTokens;
  ctx.usage.tokenCost += outcome.cost;
  const agentCharge = recordCaller(ctx.usage, meta.agentName, meta.role === "internal");
  ctx.budget.charge(allowance, outcome.inputTokens, outcome.outputTokens, outcome.cost + agentCharge, outcome.replayed);
  return { message: outcome.output as AssistantMessage, replayed: outcome.replayed };
}
