import type { DataSource } from "typeorm";
import type { RunKind } from "./entities/run.entity";
import { sql } from "./sql";

/**
 * The billing ledger summed for one UTC day, model, key and run kind of an account. A charge that
 * is not a call is summed under `fee:<kind>` (`fee:agent`, `fee:image`, `fee:tool`…) or
 * `discount`, with no calls or tokens.
 */
export interface UsageRow {
  /** `YYYY-MM-DD`, the UTC day the calls finished. */
  day: string;
  model: string;
  /** Null for runs of a key since deleted. */
  api_key_id: string | null;
  kind: RunKind;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost: number;
}

/**
 * A run's ledger entries all come within this long of its request: its deadline is well under it,
 * and an operator's retry is refused once its attempt could end later (see `api/runs/operator-retry.ts`).
 */
export const RUN_STEPS_WITHIN_MS = 24 * 3_600_000;

/**
 * An account's billing ledger in `[since, until)` (no end when `until` is left out): its runs'
 * calls (`run_steps`, every LLM or tool call, by the time it ended) and their other charges
 * (`run_charges`, by the time they were made), summed by UTC day, model, key and the kind of run
 * they belong to. The runs are found through `runs_user_queued_idx`; a run's entries come after it
 * was queued, and within `RUN_STEPS_WITHIN_MS` of it.
 */
export function usageOfUser(ds: DataSource, userId: string, since: Date, until?: Date): Promise<UsageRow[]> {
  return sql<UsageRow>(
    ds,
    `WITH mine AS (
       SELECT id, api_key_id, kind FROM runs
        WHERE user_id = $1 AND queued_at >= $2::timestamptz - $4::double precision * interval '1 millisecond'
          AND ($3::timestamptz IS NULL OR queued_at < $3)
     ), entries AS (
       SELECT s.run_id, s.finished_at AS at, s.model, 1 AS calls, s.input_tokens, s.output_tokens, s.cost
         FROM mine JOIN run_steps s ON s.run_id = mine.id
       UNION ALL
       SELECT c.run_id, c.created_at, CASE WHEN c.kind = 'discount' THEN 'discount' ELSE 'fee:' || c.kind END,
              0, 0, 0, c.amount
         FROM mine JOIN run_charges c ON c.run_id = mine.id
     )
     SELECT to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, e.model, m.api_key_id, m.kind,
            sum(e.calls)::int AS calls, sum(e.input_tokens)::float8 AS input_tokens,
            sum(e.output_tokens)::float8 AS output_tokens, sum(e.cost)::float8 AS cost
       FROM entries e JOIN mine m ON m.id = e.run_id
      WHERE e.at >= $2 AND ($3::timestamptz IS NULL OR e.at < $3)
      GROUP BY 1, 2, 3, 4
      ORDER BY 1, 2, 3, 4`,
    [userId, since, until ?? null, RUN_STEPS_WITHIN_MS],
  );
}

/** An account's keys (revoked ones too) with the time each last started a run, or null. */
export interface KeyLastUse {
  id: string;
  name: string;
  last4: string;
  last_used_at: Date | null;
}

/** Each key's last use: the newest run it made, read from `runs_api_key_queued_idx`. */
export function keysLastUse(ds: DataSource, userId: string): Promise<KeyLastUse[]> {
  return sql<KeyLastUse>(
    ds,
    `SELECT k.id, k.name, k.last4,
            (SELECT max(r.queued_at) FROM runs r WHERE r.api_key_id = k.id) AS last_used_at
       FROM api_keys k WHERE k.user_id = $1 ORDER BY k.created_at`,
    [userId],
  );
}

/** An account's billing ledger summed over all time: its calls' tokens, and every charge. */
export interface LedgerTotals {
  input_tokens: number;
  output_tokens: number;
  cost: number;
}

/** The whole ledger of an account's runs (`runs_user_queued_idx`, then each run's steps and charges). */
export async function ledgerTotals(ds: DataSource, userId: string): Promise<LedgerTotals> {
  const [row] = await sql<LedgerTotals>(
    ds,
    `WITH mine AS (SELECT id FROM runs WHERE user_id = $1)
     SELECT coalesce(sum(s.input_tokens), 0)::float8 AS input_tokens,
            coalesce(sum(s.output_tokens), 0)::float8 AS output_tokens,
            coalesce(sum(s.cost), 0)::float8 + (SELECT coalesce(sum(c.amount), 0)::float8
                                                 FROM mine JOIN run_charges c ON c.run_id = mine.id) AS cost
       FROM mine JOIN run_steps s ON s.run_id = mine.id`,
    [userId],
  );
  return row;
}

/** A run's calls summed from the ledger: its tokens and the models its calls used. */
export interface RunLedgerSums {
  job_id: string;
  input_tokens: number;
  output_tokens: number;
  /** The distinct models the calls used, sorted. */
  models: string[];
}

/**
 * The calls of each of an account's runs (a batch's items' calls for a batch), by job id, summed
 * from `run_steps`, the rows `GET /v1/jobs/{job_id}/steps` lists: the runs by their unique job id,
 * a batch's items by `runs_parent_idx`, their steps by `run_steps_step_key_idx`. Another account's
 * job id is left out; a run with no calls has zero tokens. Exported so a test can ask for its plan.
 */
export const LEDGER_SUMS_OF_RUNS = `WITH targets AS (SELECT id, job_id FROM runs WHERE job_id = ANY($1::text[]) AND user_id = $2),
     members AS (
       SELECT t.job_id, t.id AS member FROM targets t
       UNION ALL
       SELECT t.job_id, c.id FROM targets t JOIN runs c ON c.parent_id = t.id
     )
     SELECT m.job_id, coalesce(sum(s.input_tokens), 0)::float8 AS input_tokens,
            coalesce(sum(s.output_tokens), 0)::float8 AS output_tokens,
            coalesce(array_agg(DISTINCT s.model ORDER BY s.model) FILTER (WHERE s.model IS NOT NULL), '{}') AS models
       FROM members m LEFT JOIN run_steps s ON s.run_id = m.member
      GROUP BY m.job_id`;

/** `LEDGER_SUMS_OF_RUNS` for these job ids of the account. */
export function ledgerSumsOfRuns(ds: DataSource, userId: string, jobIds: string[]): Promise<RunLedgerSums[]> {
  return sql<RunLedgerSums>(ds, LEDGER_SUMS_OF_RUNS, [jobIds, userId]);
}
