import type { EmbeddingRunOutput, EmbeddingRunRequest } from "../../shared/contracts/embedding-run";
import { createEmbeddings, inputCount, type EmbeddingResult } from "../../shared/llm/embeddings";
import { embeddingCost, roundCost } from "../../shared/llm/pricing";
import type { ResolvedModel } from "../../shared/llm/providers";
import { onRequestLeaving } from "../../shared/llm/request-leaving";
import { RunAbortedError } from "../../shared/llm/run-aborted";
import { upstreamCost } from "../../shared/llm/upstream-prices";
import { failureCauseOf } from "../../shared/failure-cause";
import { countLlmCall } from "../../shared/metrics/llm";
import { secondsSince } from "../../shared/metrics/registry";
import type { AgentContext } from "./agent-context";
import { BudgetExceededError } from "./call-allowance";
import { withLlmSlot } from "./llm-slots";
import { ProviderTurns } from "./provider-turns";
import type { StepOutcome, StepRecorder } from "./step-recorder";

/** The name an embeddings call is recorded under in `run_steps` (it has no agent). */
const EMBEDDING_STEP_AGENT = "embeddings";

/** Makes the call and counts it in the worker's metrics (`apiary_llm_*`), at the embedding price. */
async function countedCall(target: ResolvedModel, call: () => Promise<EmbeddingResult>): Promise<EmbeddingResult> {
  const start = performance.now();
  const labels = { provider: target.provider, model: target.model };
  try {
    const reply = await call();
    const inputTokens = reply.inputTokens ?? 0;
    const cost = embeddingCost(inputTokens);
    countLlmCall({ ...labels, seconds: secondsSince(start), outcome: "ok", inputTokens, outputTokens: 0, cost });
    return reply;
  } catch (err) {
    const outcome = err instanceof RunAbortedError ? "aborted" : "error";
    countLlmCall({ ...labels, seconds: secondsSince(start), outcome, cause: failureCauseOf(err) });
    throw err;
  }
}

/** The run's own ceiling in dollars, checked with the call's price before it is made. */
function assertCostFits(budget: AgentContext["budget"], cost: number): void {
  const { maxCost } = budget.limits;
  if (roundCost(budget.cost + cost) > maxCost)
    throw new BudgetExceededError(
      `The run reached its cost limit of $${maxCost}: its embeddings call ($${roundCost(cost)}) does not fit`,
      "cost",
    );
}

/**
 * An embeddings request's one provider call as a recorded step (replayed from Postgres on a
 * retried job, so made and billed once), checked against the run's budget and the pools it
 * shares with the input's counted tokens at the embedding price before it is made, then charged
 * to the run's usage and budget with the provider's count (the counted tokens when it reports none).
 */
export async function recordedEmbeddingCall(
  ctx: Pick<AgentContext, "budget" | "usage" | "signal">,
  recorder: StepRecorder,
  target: ResolvedModel,
  request: EmbeddingRunRequest,
): Promise<EmbeddingRunOutput> {
  const counted = request.input_tokens;
  const replay = recorder.willReplay();
  if (!replay) assertCostFits(ctx.budget, embeddingCost(counted));
  // The pools check the call's price as a flat charge: the output it reserves is none.
  const allowance = await ctx.budget.beforeCall(
    { prompt: counted, output: 0, charge: embeddingCost(counted), replay },
    ctx.signal,
  );
  const { input, dimensions, user } = request;
  // The step names what it embedded rather than repeating the input, which the run's request holds.
  const summary = { inputs: inputCount(input), input_tokens: counted, ...(dimensions ? { dimensions } : {}) };
  const meta = { agentName: EMBEDDING_STEP_AGENT, role: "embedding", model: request.model, input: summary };
  let outcome;
  try {
    outcome = await recorder.step(meta, async (): Promise<StepOutcome> => {
      const turns = new ProviderTurns(target, () => counted, ctx.signal);
      await turns.next();
      let reply: EmbeddingResult;
      try {
        reply = await withLlmSlot(ctx.signal, () =>
          countedCall(target, () =>
            onRequestLeaving(
              () => ctx.budget.callSent(allowance),
              () =>
                createEmbeddings(
                  target,
                  { input, ...(dimensions ? { dimensions } : {}), ...(user ? { user } : {}) },
                  { signal: ctx.signal, beforeRetry: () => turns.next() },
                ),
            ),
          ),
        );
      } catch (err) {
        turns.settle(0);
        throw err;
      }
      const inputTokens = reply.inputTokens ?? counted;
      turns.settle(inputTokens);
      const output: EmbeddingRunOutput = { embeddings: reply.embeddings, model: reply.model };
      return {
        output,
        inputTokens,
        outputTokens: 0,
        cost: embeddingCost(inputTokens),
        provider: target.provider,
        upstreamCost: () => upstreamCost(target.model, target.provider, inputTokens, 0),
      };
    });
  } catch (err) {
    ctx.budget.release(allowance);
    throw err;
  }
  ctx.usage.inputTokens += outcome.inputTokens;
  ctx.usage.tokenCost += outcome.cost;
  ctx.budget.charge(allowance, outcome);
  return outcome.output as EmbeddingRunOutput;
}
