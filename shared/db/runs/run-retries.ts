import type { DataSource } from "typeorm";
import type { RetryModel, Run, RunRetry } from "../entities/run.entity";
import { sql } from "../sql";

/** A run as an operator's retry sees it: the row, and whether the API key that made it has been revoked since. */
export type RetryCandidate = Run & { key_revoked: boolean };

/**
 * The run a retry is asked for, or null when there is none: any run for an operator, one of the
 * account's own for a client (`userId`).
 */
export async function findRetryCandidate(ds: DataSource, id: string, userId?: string): Promise<RetryCandidate | null> {
  const rows = await sql<RetryCandidate>(
    ds,
    `SELECT r.*, (k.revoked_at IS NOT NULL) AS key_revoked
       FROM runs r LEFT JOIN api_keys k ON k.id = r.api_key_id
      WHERE r.id = $1 AND ($2::uuid IS NULL OR r.user_id = $2)`,
    [id, userId ?? null],
  );
  return rows[0] ?? null;
}

/** What a retry adds to the ended attempt's entry: who asked, and the model it gave the failed agents. */
export type RetryAsked = Pick<RunRetry, "by"> & { model?: RetryModel | null; webhookUrl?: string | null };

/**
 * Re-opens a failed run for a retry (its client's or an operator's), before its job goes back to
 * the queue: the run is `queued` again with no error, start or end (its next attempt gets a
 * deadline of its own), and how the ended attempt went is appended to `retries`, with who asked and
 * the model it gave the failed agents. A `webhookUrl` replaces the run's. Its usage stays until the
 * next attempt writes its own (which counts the replayed steps again). Returns the re-opened row,
 * or null when the run is not failed (any more): a concurrent retry got there first.
 */
export async function reopenFailedRun(ds: DataSource, id: string, asked: RetryAsked): Promise<Run | null> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'queued', error = NULL, agents = NULL, started_at = NULL, finished_at = NULL,
       execution_time = NULL, lease_owner = NULL, lease_until = NULL, webhook_url = COALESCE($4, webhook_url),
       retries = retries || jsonb_build_array(jsonb_build_object(
         'retried_at', now(), 'status', status, 'error', error, 'usage', usage, 'agents', agents,
         'started_at', started_at, 'finished_at', finished_at, 'execution_time', execution_time,
         'by', $2::text, 'model', $3::jsonb))
     WHERE id = $1 AND status = 'failed'
     RETURNING *`,
    [id, asked.by ?? "operator", JSON.stringify(asked.model ?? null), asked.webhookUrl ?? null],
  );
  return rows[0] ?? null;
}

/**
 * Puts back a run `reopenFailedRun` re-opened when its job could not be moved back to the queue:
 * failed as it was, its last `retries` entry taken off. Nothing changes once a worker has claimed
 * the run (then the job did reach the queue).
 */
export async function undoReopen(ds: DataSource, id: string): Promise<void> {
  await sql(
    ds,
    `UPDATE runs SET status = 'failed', error = retries -> -1 -> 'error', agents = retries -> -1 -> 'agents',
       started_at = (retries -> -1 ->> 'started_at')::timestamptz,
       finished_at = (retries -> -1 ->> 'finished_at')::timestamptz,
       execution_time = (retries -> -1 ->> 'execution_time')::double precision, retries = retries - (-1)
     WHERE id = $1 AND status = 'queued' AND jsonb_array_length(retries) > 0`,
    [id],
  );
}
