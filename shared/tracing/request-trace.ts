import { AsyncLocalStorage } from "node:async_hooks";

/** The `traceparent` of the request span being served, for the jobs it queues. */
const current = new AsyncLocalStorage<string>();

/** Runs `work` (a traced request's handling) so that every job it queues continues `traceparent`'s trace. */
export function withRequestTrace<T>(traceparent: string, work: () => T): T {
  return current.run(traceparent, work);
}

/**
 * The field a job's payload carries to continue the request's trace in the worker (nothing
 * outside a traced request, so an untraced job's payload is as it was).
 */
export function traceparentField(): { traceparent?: string } {
  const traceparent = current.getStore();
  return traceparent ? { traceparent } : {};
}
