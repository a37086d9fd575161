import type OpenAI from "openai";
import { consumptionOf } from "../../shared/llm/call-consumption";
import { chatCompletion, type ChatOptions, type ChatRequest, type ChatResult } from "../../shared/llm/chat";
import type { ChatRunChoice } from "../../shared/contracts/chat-run";
import { tokenCosts } from "../../shared/llm/pricing";
import type { ResolvedModel } from "../../shared/llm/providers";
import { RunAbortedError } from "../../shared/llm/run-aborted";
import { upstreamCost } from "../../shared/llm/upstream-prices";
import { failureCauseOf } from "../../shared/failure-cause";
import { countLlmCall } from "../../shared/metrics/llm";
import { secondsSince } from "../../shared/metrics/registry";
import type { AgentContext } from "./agent-context";
import { withLlmSlot } from "./llm-slots";
import { estimatedCallTokens, ProviderTurns } from "./provider-turns";
import type { CallAllowance } from "./call-allowance";
import type { InFlightCall } from "./spend-pools";
import { billCaller } from "./run-charges";
import { onRequestLeaving } from "../../shared/llm/request-leaving";
import { CallCutOff, type StepMeta, type StepOutcome, type StepRecorder } from "./step-recorder";

/** What an assistant turn is stored as: its text and any tool calls, and what was cut of it. */
export type AssistantMessage = {
  content: string | null;
  tool_calls?: OpenAI.Chat.Completions.ChatCompletionMessageToolCall[];
  /** Set when the answer was over `MODEL_OUTPUT_MAX_CHARS` and cut (see `ChatResult`). */
  truncated?: { received: number; kept: number };
  /** Every answer of the call with why it ended and its log probabilities, when the caller keeps them (a chat run). */
  choices?: ChatRunChoice[];
  system_fingerprint?: string | null;
};

/** How the caller reads the call: as it streams (`onText`, `onDelta`), and whether every answer is kept (`keepChoices`). */
export type CallReading = Pick<ChatOptions, "onText" | "onDelta"> & { keepChoices?: boolean };

/** Makes one LLM call and counts it in the worker's metrics (`apiary_llm_*`), whatever its end (a cut-off one with what it consumed). */
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
    // A call cut off part-way counts what it consumed, as its run is billed for it.
    const consumed = consumptionOf(err);
    const spent = consumed ? tokenCosts(consumed.inputTokens, consumed.outputTokens) : null;
    countLlmCall({
      ...labels,
      seconds: secondsSince(start),
      outcome: err instanceof RunAbortedError ? "aborted" : "error",
      cause: failureCauseOf(err),
      inputTokens: consumed?.inputTokens,
      outputTokens: consumed?.outputTokens,
      cost: spent ? spent.inputCost + spent.outputCost : undefined,
    });
    throw err;
  }
}

/**
 * What the pools note of the call the lane makes next while it is with the provider (see
 * `InFlightCall`): the step it makes, whose agent, which model.
 */
export function inFlightCall(
  lane: StepRecorder,
  agentName: string,
  role: string,
  model: string,
  target: ResolvedModel,
): InFlightCall {
  return { step: lane.nextKey(), agentName, role, model, provider: target.provider };
}

/** A call's tokens at our prices, and what the provider charges for them where its prices are known. */
function pricedOutcome(
  target: ResolvedModel,
  inputTokens: number,
  outputTokens: number,
  output: AssistantMessage,
): StepOutcome {
  const { inputCost, outputCost } = tokenCosts(inputTokens, outputTokens);
  return {
    output,
    inputTokens,
    outputTokens,
    cost: inputCost + outputCost,
    provider: target.provider,
    upstreamCost: () => upstreamCost(target.model, target.provider, inputTokens, outputTokens),
  };
}

/** What an assistant message is stored as: its text and any tool calls (and `truncated`, when it was cut). */
function assistantMessage(
  message: OpenAI.Chat.Completions.ChatCompletionMessage | null,
  truncated?: ChatResult["truncated"],
): AssistantMessage {
  return {
    content: message?.content ?? null,
    ...(message?.tool_calls?.length ? { tool_calls: message.tool_calls } : {}),
    ...(truncated ? { truncated } : {}),
  };
}

/** A whole reply as stored: the first answer, and every answer when the caller keeps them. */
function replyMessage(reply: ChatResult, keepChoices: boolean | undefined): AssistantMessage {
  const first = assistantMessage(reply.message, reply.truncated);
  return keepChoices ? { ...first, choices: reply.choices, system_fingerprint: reply.systemFingerprint } : first;
}

/** Counts a call's tokens and cost in the run's usage and budget (its agent's per-agent charge with its first call). */
function charge(
  ctx: Pick<AgentContext, "budget" | "usage">,
  recorder: StepRecorder,
  meta: StepMeta,
  allowance: CallAllowance,
  outcome: StepOutcome,
  replayed: boolean,
): void {
  ctx.usage.inputTokens += outcome.inputTokens;
  ctx.usage.outputTokens += outcome.outputTokens;
  ctx.usage.tokenCost += outcome.cost;
  const fee = billCaller({ ...ctx, recorder }, meta.agentName, meta.role === "internal");
  ctx.budget.charge(allowance, { ...outcome, replayed }, fee);
}

/**
 * One LLM call as a recorded step (replayed from Postgres on a retried job), charged to the run's
 * budget and usage under `meta.agentName` (with the agent's per-agent charge on its first call).
 * The caller reserves the call's `allowance` from the budget before building `request` (its output
 * cap, and `callerCharge` as its `charge`); a call that fails gives it back, a call
 * whose run is cancelled while it waits for its provider key's turn (`provider-turns.ts`) or for a
 * slot under `LLM_MAX_IN_FLIGHT` too. A call cut off
 * while the provider had it (the run's deadline or cancel, a stream failing part-way) is charged
 * what it consumed and stored as a `cut_off` step before its error goes on.
 */
export async function recordedLlmCall(
  ctx: Pick<AgentContext, "budget" | "usage" | "signal">,
  recorder: StepRecorder,
  meta: StepMeta,
  target: ResolvedModel,
  request: ChatRequest,
  allowance: CallAllowance,
  reading: CallReading = {},
): Promise<{ message: AssistantMessage; replayed: boolean }> {
  const { onText, onDelta } = reading;
  let outcome;
  try {
    outcome = await recorder.step(meta, async () => {
      // A replayed step never gets here, so it takes no slot of the process's LLM_MAX_IN_FLIGHT.
      try {
        // A call noted in flight counts as sent only as its request is written: a worker dying while
        // the call waits for its slot, or while the SDK builds the request, leaves nothing to bill.
        // The provider key's turn is waited for before the slot, so a call held back by the key's
        // window leaves the slot to calls for other keys.
        const turns = new ProviderTurns(target, () => estimatedCallTokens(request), ctx.signal);
        await turns.next();
        const beforeRetry = () => turns.next();
        let reply;
        try {
          reply = await withLlmSlot(ctx.signal, () =>
            countedCall(target, () =>
              onRequestLeaving(
                () => ctx.budget.callSent(allowance),
                () => chatCompletion(target, request, { signal: ctx.signal, onText, onDelta, beforeRetry }),
              ),
            ),
          );
        } catch (err) {
          const consumed = consumptionOf(err);
          turns.settle(consumed ? consumed.inputTokens + consumed.outputTokens : 0);
          throw err;
        }
        turns.settle(reply.inputTokens + reply.outputTokens);
        const output = replyMessage(reply, reading.keepChoices);
        return pricedOutcome(target, reply.inputTokens, reply.outputTokens, output);
      } catch (err) {
        const consumed = consumptionOf(err);
        if (!consumed) throw err;
        const partial = pricedOutcome(
          target,
          consumed.inputTokens,
          consumed.outputTokens,
          assistantMessage(consumed.message),
        );
        charge(ctx, recorder, meta, allowance, partial, false);
        throw new CallCutOff(err, partial);
      }
    });
  } catch (err) {
    ctx.budget.release(allowance); // nothing once a cut-off call was charged
    throw err;
  }
  charge(ctx, recorder, meta, allowance, outcome, outcome.replayed);
  const message = outcome.output as AssistantMessage;
  if (message.truncated)
    recorder.truncations.push({
      what: "model_output",
      agent: meta.agentName,
      ...message.truncated,
      unit: "characters",
    });
  return { message, replayed: outcome.replayed };
}
