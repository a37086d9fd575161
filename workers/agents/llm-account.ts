import { AsyncLocalStorage } from "node:async_hooks";

/** Whose LLM calls these are, for the fair share of the process's LLM slots (`llm-slots.ts`). */
export interface LlmAccount {
  /** The account's id (never shown: it only names the account's line). */
  id: string;
  /** Calls of the account served per turn while other accounts wait (its tier's `FAIR_WEIGHT_*`). */
  weight: number;
}

const current = new AsyncLocalStorage<LlmAccount>();

/**
 * Runs `work` (a job's handler) with its LLM calls counted as `account`'s: every call the run makes,
 * however deep in its swarm, waits in that account's line without each layer passing it on.
 */
export function asAccount<T>(account: LlmAccount, work: () => T): T {
  return current.run(account, work);
}

/** The account whose run is making the current LLM call (the service's own line outside any job). */
export function currentLlmAccount(): LlmAccount {
  return current.getStore() ?? { id: "", weight: 1 };
}
