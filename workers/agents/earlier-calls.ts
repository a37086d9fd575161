import { tokenCosts } from "../../shared/llm/pricing";
import type { AgentContext } from "./agent-context";

/**
 * Bills, in a retried execution of a run, the calls earlier executions made that are not replayed
 * as finished steps. Call before the run's first call, so no call of this execution is mistaken
 * for one left over.
 *
 * - Calls an earlier execution stored as cut off or interrupted: counted in the run's usage and
 *   budget again (they are on its bill), not in the pools (they counted them then).
 * - Calls an earlier execution had with the provider when its worker died: the pools noted each in
 *   flight (see `SharedSpend.reserve`) and nobody settled it. One the execution did finish and
 *   store is only settled in the pools (the run replays its step); any other is stored as an
 *   `interrupted` step, billed its prompt (the estimate its reservation was made with: its answer,
 *   if any, never came back), counted in the run's usage and budget, and settled in the pools, once.
 */
export async function billEarlierCalls(ctx: Pick<AgentContext, "budget" | "usage" | "recorder">): Promise<void> {
  for (const step of ctx.recorder.earlierUnfinishedSteps()) {
    ctx.usage.inputTokens += step.input_tokens;
    ctx.usage.outputTokens += step.output_tokens;
    ctx.usage.tokenCost += Number(step.cost);
    ctx.budget.addReplayedCall(step.input_tokens + step.output_tokens, Number(step.cost));
  }
  const pools = ctx.budget.pools;
  if (!pools) return;
  for (const call of await pools.leftInFlight()) {
    if (!call.sent) {
      // It waited for a slot and never reached the provider: its room is freed, nothing billed.
      await ctx.budget.settleLeftInFlight(call, 0, 0, true);
      continue;
    }
    // Finished and stored, or stored as interrupted by an execution that died before settling it:
    // on the bill already (replayed, or counted above), so only the pools are told.
    const stored = ctx.recorder.storedStep(call.step) ?? ctx.recorder.storedInterruption(call.step, call.owner);
    if (stored) {
      const tokens = stored.input_tokens + stored.output_tokens;
      await ctx.budget.settleLeftInFlight(call, tokens, Number(stored.cost), true);
      continue;
    }
    const { inputCost } = tokenCosts(call.prompt, 0);
    // Stored before it is settled: a worker dying between the two leaves it stored, to settle once.
    await ctx.recorder.interrupted({
      key: call.step,
      owner: call.owner,
      agentName: call.agentName,
      role: call.role,
      model: call.model,
      input: { interrupted: true },
      outcome: {
        output: { content: null },
        inputTokens: call.prompt,
        outputTokens: 0,
        cost: inputCost,
        provider: call.provider ?? undefined,
      },
      startedAt: new Date(call.startedAt),
    });
    ctx.usage.inputTokens += call.prompt;
    ctx.usage.tokenCost += inputCost;
    await ctx.budget.settleLeftInFlight(call, call.prompt, inputCost, false);
  }
}
