import { setMaxListeners } from "node:events";
import type { RunBudget } from "../agents/run-budget";

/**
 * One signal for everything that must stop a run: the client's cancellation, the run's deadline,
 * the worker's forced shutdown and the loss of the run's lease. The reason tells them apart.
 */
export function runSignal(
  cancel: AbortSignal | undefined,
  shutdown: AbortSignal | undefined,
  budget: RunBudget,
  leaseLost?: AbortSignal,
): AbortSignal {
  const deadline = AbortSignal.timeout(Math.max(1, budget.msLeft()));
  const signal = AbortSignal.any(
    [cancel, shutdown, deadline, leaseLost].filter((s): s is AbortSignal => s !== undefined),
  );
  setMaxListeners(0, signal); // every LLM and tool call of the run listens on it
  return signal;
}
