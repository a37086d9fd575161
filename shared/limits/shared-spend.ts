import { accountPrefix } from "../queues/shards";

/**
 * Spend that several runs share, counted in Redis: the API reads an account's spend before it
 * admits a run, and workers reserve and charge each LLM call against it. One home for the key
 * names and the stored ceilings, so both sides agree on them.
 */

/** A ceiling on tokens (input and output) and US dollars. */
interface SpendCeiling {
  max_tokens: number;
  max_cost: number;
}

/**
 * Ceilings stored with every run the API creates for a client, next to the run's own budget: the
 * run's spend also counts against them.
 */
export interface SharedSpendCeilings {
  /** All runs of one request together (a batch's items): the tier's ceiling for one run. */
  request_total: SpendCeiling;
  /** All runs of the account in the UTC day each LLM call is made. */
  account_daily: SpendCeiling;
}

/** Fields of a spend hash: tokens charged, dollars charged, output tokens reserved by calls in flight. */
export const SPEND_FIELDS = { tokens: "t", cost: "c", reserved: "r" } as const;

/** How long an unused spend hash is kept: a request's for a day, an account's day for two. */
export const REQUEST_SPEND_TTL_MS = 24 * 3_600_000;
export const ACCOUNT_SPEND_TTL_MS = 48 * 3_600_000;

// Every key opens with its account's shard prefix and hash tag (`accountPrefix`), so a script may
// touch several of one account's on a Redis Cluster (they share one slot).

/** The hash counting an account's spend on one UTC day. */
export function accountSpendKey(userId: string, day: string, prefix = accountPrefix(userId)): string {
  return `${prefix}:spend:account:${userId}:${day}`;
}

/**
 * The hash counting the spend of all runs of one request (a batch, by its parent run id), under
 * the prefix of the request's account's shard.
 */
export function requestSpendKey(parentRunId: string, prefix: string): string {
  return `${prefix}:spend:request:${parentRunId}`;
}

/** A ceiling the Redis scripts can read back (Lua may not parse "Infinity"): unlimited as the largest safe integer. */
export function finite(value: number): number {
  return Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
}
