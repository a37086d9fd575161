import { collectDefaultMetrics, Registry } from "prom-client";

/** Every metric name starts with this. */
export const PREFIX = "apiary_";

/**
 * The web process's metrics (`/metrics` on the execution API): requests, queues, refusals at the
 * door. Kept apart from the workers' so each process shows what it counts, also when tests run
 * both in one process.
 */
export const webRegistry = new Registry();

/** A worker process's metrics (its metrics port): runs, LLM calls, retries, budget stops. */
export const workerRegistry = new Registry();

const withProcessMetrics = new WeakSet<Registry>();

/** Adds Node's process metrics (CPU, memory, event loop, GC; prefixed `apiary_`) to a registry, once. */
export function addProcessMetrics(registry: Registry): void {
  if (withProcessMetrics.has(registry)) return;
  withProcessMetrics.add(registry);
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
}

/** Seconds since `startMs` (from `performance.now()`). */
export function secondsSince(startMs: number): number {
  return (performance.now() - startMs) / 1_000;
}
