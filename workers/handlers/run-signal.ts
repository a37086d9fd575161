import { setMaxListeners } from "node:events";
import type { RunBudget } from "../agents/run-budget";

/**
 * One signal for everything that must stop a run: the client's cancellation, the run's deadline
 * and the worker's forced shutdown. The reason tells them apart.
 */
export function runSignal(cancel: AbortSignal | undefined, shutdown: AbortSignal | undefined, budget: RunBudget): AbortSignal {
  const deadline = AbortSignal.timeout(Math.max(1, budget.msLeft()));
  const signal = AbortSignal.any([cancel, shutdown, deadline].filter((s): s is AbortSignal => s !== undefined));
  setMaxListeners(0, signal); // every LLM and tool call of the run listens on it
  return signal;
}
