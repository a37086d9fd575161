import type { DataSource } from "typeorm";
import type { Run } from "../entities/run.entity";
import { sql } from "../sql";
import { columnsOf, statementBatch } from "../statement-batch";

/**
 * Who holds a run: claiming it for an execution (with a lease, or without one), renewing and
 * giving up the lease, and the check a refused write makes to tell a lost lease from an ended run.
 */

/**
 * A write of a run's execution was refused because the execution no longer holds the run's lease:
 * another delivery of the job took the run over (this one stalled, or lost its queue lock), or
 * this one gave the lease up. The execution must stop without writing anything more; the run is
 * the other execution's to finish, so this is not a failure of the run or of the job.
 */
export class RunLeaseLostError extends Error {
  constructor(readonly runId: string) {
    super(`Run ${runId} is held by another execution; this one stops without writing`);
    this.name = "RunLeaseLostError";
  }
}

/**
 * After a lease-conditional write of `owner` changed nothing: throws `RunLeaseLostError` when the
 * run's lease is no longer `owner`'s (null: a run claimed without a lease), and returns when the
 * write was refused for another reason (the run had ended, the step was stored already). Only a
 * refused write comes here, so the hot path pays nothing for it. An owner, once replaced, never
 * comes back (each claim draws a new one), so what this reads tells why the write was refused.
 */
export async function assertLeaseHeld(ds: DataSource, runId: string, owner: string | null): Promise<void> {
  const rows = await sql<{ lease_owner: string | null }>(ds, `SELECT lease_owner FROM runs WHERE id = $1`, [runId]);
  if (rows.length === 0 || rows[0].lease_owner !== owner) throw new RunLeaseLostError(runId);
}

/**
 * Moves a queued (or crashed-while-running) run to running and returns it; null when the run is
 * already finished or cancelled, so a duplicate delivery does nothing.
 */
export async function claimRun(ds: DataSource, id: string): Promise<Run | null> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'running', started_at = COALESCE(started_at, now()), attempts = attempts + 1
     WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
    [id],
    { relaxed: true }, // a lost claim is simply made again by the retried job
  );
  return rows[0] ?? null;
}

/**
 * What claiming a run under a lease found: the run (now ours), a run that ended (its final row;
 * null when there is no such run), or one held by a live lease.
 */
export type LeaseClaim =
  { state: "claimed"; run: Run } | { state: "finished"; run: Run | null } | { state: "leased"; msLeft: number };

/**
 * Like `claimRun`, but a running run is taken only when nobody holds a live lease on it: a job
 * delivered a second time while its first execution still runs (its queue lock was lost) must
 * not run it twice. The claim takes the lease for `owner` for `leaseMs`.
 */
export async function claimRunLease(ds: DataSource, id: string, owner: string, leaseMs: number): Promise<LeaseClaim> {
  let claim = claims.get(ds);
  if (!claim) {
    claim = statementBatch(
      (items) => claimMany(ds, items),
      (item) => claimMany(ds, [item]).then(([run]) => run),
    );
    claims.set(ds, claim);
  }
  const run = await claim({ id, owner, leaseMs });
  return run ? { state: "claimed", run } : heldState(ds, id);
}

interface ClaimAttempt {
  id: string;
  owner: string;
  leaseMs: number;
}

const claims = new WeakMap<DataSource, (attempt: ClaimAttempt) => Promise<Run | null>>();

/**
 * The claim statement of many attempts (group-committed, `statementBatch`): each attempt's run,
 * or null when it was not taken. Nothing else happens in the batch, so a failed batch committed nothing.
 */
async function claimMany(ds: DataSource, attempts: readonly ClaimAttempt[]): Promise<(Run | null)[]> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'running', started_at = COALESCE(runs.started_at, now()), attempts = runs.attempts + 1,
       lease_owner = v.owner, lease_until = now() + v.lease_ms * interval '1 millisecond'
     FROM unnest($1::uuid[], $2::uuid[], $3::float8[]) AS v(id, owner, lease_ms)
     WHERE runs.id = v.id
       AND (runs.status = 'queued' OR (runs.status = 'running' AND (runs.lease_until IS NULL OR runs.lease_until < now())))
     RETURNING runs.*`,
    columnsOf(attempts.map((a) => [a.id, a.owner, a.leaseMs])),
    { relaxed: true }, // a lost claim is simply made again by the retried job
  );
  const claimed = new Map(rows.map((run) => [run.id, run]));
  // Two deliveries of one run in a batch: the row names the one owner that took it.
  return attempts.map(({ id, owner }) => {
    const run = claimed.get(id);
    return run?.lease_owner === owner ? run : null;
  });
}

/**
 * Why a run could not be claimed: it has ended (its row comes along, for the job to end the way
 * the run did), or another execution's lease still holds it.
 */
async function heldState(ds: DataSource, id: string): Promise<LeaseClaim> {
  const held = await sql<Run & { ms_left: number | null }>(
    ds,
    `SELECT *, EXTRACT(EPOCH FROM (lease_until - now())) * 1000 AS ms_left FROM runs WHERE id = $1`,
    [id],
  );
  const row = held[0];
  if (row?.status !== "running") {
    if (!row) return { state: "finished", run: null };
    const { ms_left: _, ...run } = row;
    return { state: "finished", run: run as Run };
  }
  return { state: "leased", msLeft: Math.max(0, Number(row.ms_left ?? 0)) };
}

/** Extends `owner`'s lease; false when the lease has passed to another execution. */
export async function renewRunLease(ds: DataSource, id: string, owner: string, leaseMs: number): Promise<boolean> {
  const rows = await sql(
    ds,
    `UPDATE runs SET lease_until = now() + $3::double precision * interval '1 millisecond'
     WHERE id = $1 AND lease_owner = $2 RETURNING 1`,
    [id, owner, leaseMs],
    { relaxed: true },
  );
  return rows.length > 0;
}

/**
 * Gives up `owner`'s lease (the job is being retried), so the next delivery need not wait for it to
 * expire; the execution that gave it up can write nothing more to the run.
 */
export async function releaseRunLease(ds: DataSource, id: string, owner: string): Promise<void> {
  await sql(
    ds,
    `UPDATE runs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`,
    [id, owner],
    {
      relaxed: true,
    },
  );
}
