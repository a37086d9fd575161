import { config } from "../../shared/config";
import { FairSemaphore } from "../../shared/concurrency/fair-semaphore";
import { abortReason, RunAbortedError } from "../../shared/llm/run-aborted";
import { observeLlmSlotWait, watchLlmSlots } from "../../shared/metrics/llm";
import { secondsSince } from "../../shared/metrics/registry";
import { currentLlmAccount } from "./llm-account";

/**
 * The process's cap on LLM calls in flight (`LLM_MAX_IN_FLIGHT`): every job of every queue this
 * process serves shares it, so the job concurrency can be high (runs mostly wait on the LLM) while
 * the outbound calls stay bounded. Calls beyond it wait in one line per account, served round-robin
 * (`FAIR_WEIGHT_*` calls of an account per turn), each line in the order its calls asked: an
 * account with thousands of calls waiting delays another's by one turn, not by all of them.
 */
let slots = new FairSemaphore(config.llm.maxInFlight);
watchLlmSlots(() => ({ inFlight: slots.inUse, waiting: slots.waiting }));

/**
 * Runs `call` once a slot is free and it is the current account's turn (`llm-account.ts`), and
 * frees the slot when it settles. A run whose signal fires
 * while its call waits gives up at once with `RunAbortedError`, as a call in flight does.
 */
export async function withLlmSlot<T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  const start = performance.now();
  let release;
  try {
    const account = currentLlmAccount();
    release = await slots.acquire(account.id, account.weight, signal);
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
  slots = new FairSemaphore(limit);
}
