import type { Harness } from "./harness";

/** A fresh account and what it caused: its runs and the LLM and tool calls billed to them. */
export interface Account {
  key: string;
  keyId: string;
  userId: string;
  /** The account's runs, oldest first (batch items included). */
  runs(): Promise<{ id: string; kind: string; status: string; parent_id: string | null }[]>;
  /** The account's top-level runs (no batch items), oldest first. */
  topRuns(): Promise<{ id: string; kind: string; status: string }[]>;
  /** Billed calls: the `run_steps` of every run of the account. */
  charges(): Promise<number>;
  /** What the account's top-level runs were billed, in dollars (per-agent charges included, failed runs too). */
  billed(): Promise<number>;
}

/** A fresh user and key, with readers for the runs and charges made on its account. */
export async function freshAccount(h: Harness): Promise<Account> {
  const { key, keyId, userId } = await h.newKey();
  const runs = () =>
    h.deps.ds.query("SELECT id, kind, status, parent_id FROM runs WHERE user_id = $1 ORDER BY queued_at, id", [userId]);
  return {
    key,
    keyId,
    userId,
    runs,
    topRuns: async () => (await runs()).filter((r: { parent_id: string | null }) => r.parent_id === null),
    charges: async () =>
      Number(
        (
          await h.deps.ds.query(
            "SELECT count(*) AS n FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.user_id = $1",
            [userId],
          )
        )[0].n,
      ),
    billed: async () =>
      Number(
        (
          await h.deps.ds.query(
            "SELECT coalesce(sum(billed_cost), 0) AS cost FROM usage_ledger WHERE user_id = $1 AND parent_id IS NULL",
            [userId],
          )
        )[0].cost,
      ),
  };
}

/**
 * A `fetch` for an SDK client that notes each attempt's `X-Stainless-Retry-Count` (the header the
 * Stainless-generated SDKs number their attempts with) and how it ended: the answer's status, or
 * `gave up` when the client's time-out aborted it first.
 */
export function countingFetch(): { fetch: typeof fetch; attempts: string[]; outcomes: (number | "gave up")[] } {
  const attempts: string[] = [];
  const outcomes: (number | "gave up")[] = [];
  return {
    attempts,
    outcomes,
    fetch: async (input, init) => {
      attempts.push(new Headers(init?.headers).get("x-stainless-retry-count") ?? "none");
      try {
        const res = await fetch(input, init);
        outcomes.push(res.status);
        return res;
      } catch (err) {
        outcomes.push("gave up");
        throw err;
      }
    },
  };
}
