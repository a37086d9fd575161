import type { DataSource } from "typeorm";
import type { RunKind } from "./entities/run.entity";
import { sql } from "./sql";

/** The step ledger summed for one UTC day, model, key and run kind of an account. */
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
 * A run's steps all finish within this long of its request: its deadline is well under it, and an
 * operator's retry is refused once its attempt could end later (see `api/runs/operator-retry.ts`).
 */
export const RUN_STEPS_WITHIN_MS = 24 * 3_600_000;

/**
 * An account's `run_steps` (every finished LLM or tool call) that finished in `[since, until)`
 * (no end when `until` is left out), summed by UTC day, model, key and the kind of run they belong
 * to. The runs are found through `runs_user_queued_idx`; a run's steps finish after it was queued,
 * and within `RUN_STEPS_WITHIN_MS` of it.
 */
export function usageOfUser(ds: DataSource, userId: string, since: Date, until?: Date): Promise<UsageRow[]> {
  return sql<UsageRow>(
    ds,
    `SELECT to_char(s.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, s.model, r.api_key_id, r.kind,
            count(*)::int AS calls, sum(s.input_tokens)::float8 AS input_tokens,
            sum(s.output_tokens)::float8 AS output_tokens, sum(s.cost)::float8 AS cost
       FROM runs r JOIN run_steps s ON s.run_id = r.id
      WHERE r.user_id = $1 AND r.queued_at >= $2::timestamptz - $4::double precision * interval '1 millisecond' AND s.finished_at >= $2
        AND ($3::timestamptz IS NULL OR (r.queued_at < $3 AND s.finished_at < $3))
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
