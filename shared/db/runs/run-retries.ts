import type { DataSource } from "typeorm";
import type { Run } from "../entities/run.entity";
import { sql } from "../sql";

/** A run as an operator's retry sees it: the row, and whether the API key that made it has been revoked since. */
export type RetryCandidate = Run & { key_revoked: boolean };

/** The run of a job an operator asks to retry, or null when there is none. */
export async function findRetryCandidate(ds: DataSource, id: string): Promise<RetryCandidate | null> {
  const rows = await sql<RetryCandidate>(
    ds,
    `SELECT r.*, (k.revoked_at IS NOT NULL) AS key_revoked
       FROM runs r LEFT JOIN api_keys k ON k.id = r.api_key_id
      WHERE r.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Re-opens a failed run for an operator's retry, before its job goes back to the queue: the run is
 * `queued` again with no error, start or end (its next attempt gets a deadline of its own), and how
 * the ended attempt went is appended to `retries`. Its usage stays until the next attempt writes
 * its own (which counts the replayed steps again). Returns the re-opened row, or null when the run
 * is not failed (any more): a concurrent retry got there first.
 */
export async function reopenFailedRun(ds: DataSource, id: string): Promise<Run | null> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'queued', error = NULL, agents = NULL, started_at = NULL, finished_at = NULL,
       execution_time = NULL, lease_owner = NULL, lease_until = NULL,
       retries = retries || jsonb_build_array(jsonb_build_object(
         'retried_at', now(), 'status', status, 'error', error, 'usage', usage, 'agents', agents,
         'started_at', started_at, 'finished_at', finished_at, 'execution_time', execution_time))
     WHERE id = $1 AND status = 'failed'
     RETURNING *`,
    [id],
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
