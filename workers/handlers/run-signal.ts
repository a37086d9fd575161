import { setMaxListeners } from "node:events";
import type { RunBudget } from "../agents/run-budget";

/** A run's signal, and what lets go of its sources once the run has ended. */
export interface RunSignal {
  signal: AbortSignal;
  /**
   * Aborts the signal for the run's own ending (a turn failed, the budget stopped it): work still
   * going beside the turn that ended it (a parallel turn, an agent's next loop) stops too.
   */
  end(reason: unknown): void;
  /** Stops listening to the sources and clears the deadline's timer; call once the run has ended. */
  dispose(): void;
}

/**
 * One signal for everything that must stop a run: the client's cancellation, the run's deadline,
 * the worker's forced shutdown and the loss of the run's lease. The reason tells them apart.
 *
 * Built by hand rather than with `AbortSignal.any` and `AbortSignal.timeout`: on Node 20 a
 * composite of a long-lived source (the worker's shutdown signal) stays referenced by it, and a
 * timeout signal keeps its timer until it fires (a day, for the default deadline). Both outlived
 * every run, and a worker under sustained load grew by hundreds of MiB until its memory ceiling
 * stopped it (docs/performance.md). Here every listener and the timer go with `dispose`.
 */
export function runSignal(
  cancel: AbortSignal | undefined,
  shutdown: AbortSignal | undefined,
  budget: RunBudget,
  leaseLost?: AbortSignal,
): RunSignal {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // every LLM and tool call of the run listens on it
  const sources = [cancel, shutdown, leaseLost].filter((s): s is AbortSignal => s !== undefined);
  const follow = (source: AbortSignal) => () => controller.abort(source.reason);
  const listeners = sources.map((source) => [source, follow(source)] as const);
  const deadline = setTimeout(
    () => controller.abort(new DOMException("The run reached its deadline", "TimeoutError")),
    Math.max(1, budget.msLeft()),
  );
  deadline.unref();
  const dispose = () => {
    clearTimeout(deadline);
    for (const [source, listener] of listeners) source.removeEventListener("abort", listener);
  };
  for (const [source, listener] of listeners) {
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    source.addEventListener("abort", listener, { once: true });
  }
  controller.signal.addEventListener("abort", dispose, { once: true });
  const end = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  return { signal: controller.signal, end, dispose };
}
