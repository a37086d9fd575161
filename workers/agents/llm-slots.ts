import { config } from "../../shared/config";
import { FifoSemaphore } from "../../shared/concurrency/fifo-semaphore";
import { abortReason, RunAbortedError } from "../../shared/llm/run-aborted";
import { observeLlmSlotWait, watchLlmSlots } from "../../shared/metrics/llm";
import { secondsSince } from "../../shared/metrics/registry";

/**
 * The process's cap on LLM calls in flight (`LLM_MAX_IN_FLIGHT`): every job of every queue this
 * process serves shares it, so the job concurrency can be high (runs mostly wait on the LLM) while
 * the outbound calls stay bounded. Calls beyond it wait in the order they asked.
 */
let slots = new FifoSemaphore(config.llm.maxInFlight);
watchLlmSlots(() => ({ inFlight: slots.inUse, waiting: slots.waiting }));

/**
 * Runs `call` once a slot is free and frees the slot when it settles. A run whose signal fires
 * while its call waits gives up at once with `RunAbortedError`, as a call in flight does.
 */
export async function withLlmSlot<T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  const start = performance.now();
  let release;
  try {
    release = await slots.acquire(signal);
  } catch (err) {
    // The wait ends early only when the run's signal fires: the same error as a call it aborts.
    throw signal?.aborted ? new RunAbortedError(abortReason(signal)) : err;
  } finally {
    observeLlmSlotWait(secondsSince(start));
  }
  try {
    return await call();
  } finally {
    release();
  }
}

/**
 * Replaces the cap with a new one of `limit` slots (tests set a low cap to watch it hold). Calls
 * already holding or waiting for a slot of the old cap keep it.
 */
export function setLlmMaxInFlight(limit: number): void {
  slots = new FifoSemaphore(limit);
}
