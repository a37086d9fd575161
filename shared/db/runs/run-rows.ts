import type { DataSource } from "typeorm";
import type { Run, RunError, RunKind } from "../entities/run.entity";
import type { RunStep } from "../entities/run-step.entity";
import type { StoredSecret } from "../../secrets/run-secrets";
import { assertLeaseHeld } from "./run-leases";
import { sql } from "../sql";
import { columnsOf, rowChars, statementBatch } from "../statement-batch";

/**
 * SQL for the request spine's hot path: every statement here runs once per request, so each is a
 * single round trip (no ORM hydration, no read-before-write).
 */

export interface NewRun {
  id: string;
  kind: RunKind;
  apiKeyId: string | null;
  userId: string | null;
  request: unknown;
  /** The secrets withheld from `request`, sealed (never shown to anyone). */
  sealedSecrets?: StoredSecret[] | null;
  parentId?: string | null;
  serviceTier?: string;
}

const RUN_COLUMNS = "id, job_id, kind, parent_id, api_key_id, user_id, status, request, sealed_secrets, service_tier";

function runValues(run: NewRun): unknown[] {
  return [
    run.id,
    run.kind,
    run.parentId ?? null,
    run.apiKeyId,
    run.userId,
    JSON.stringify(run.request),
    run.sealedSecrets ? JSON.stringify(run.sealedSecrets) : null,
    run.serviceTier ?? "standard",
  ];
}

function runInserts(ds: DataSource, relaxed: boolean) {
  return statementBatch<unknown[], void>(
    async (rows) => {
      await sql(
        ds,
        `INSERT INTO runs (${RUN_COLUMNS})
         SELECT id, id::text, kind, parent_id, api_key_id, user_id, 'queued', request, sealed_secrets, service_tier
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[], $6::jsonb[], $7::jsonb[], $8::text[])
           AS v(id, kind, parent_id, api_key_id, user_id, request, sealed_secrets, service_tier)`,
        columnsOf([...rows]),
        { relaxed },
      );
      return rows.map(() => undefined);
    },
    async ([id, ...rest]) => {
      await sql(
        ds,
        `INSERT INTO runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8, $9)`,
        [id, id, ...rest],
        { relaxed },
      );
    },
    rowChars,
  );
}

const inserts = new WeakMap<
  DataSource,
  { durable: (values: unknown[]) => Promise<void>; relaxed: (values: unknown[]) => Promise<void> }
>();

/**
 * Stores a queued run; its job id is its id. `relaxed` commits without waiting for the disk: only
 * for a run whose caller hears of it through a later durable commit (see `confirmRunStored`).
 * Concurrent requests' runs are group-committed (`statementBatch`).
 */
export function insertRun(ds: DataSource, run: NewRun, options: { relaxed?: boolean } = {}): Promise<void> {
  let batches = inserts.get(ds);
  if (!batches) {
    batches = { durable: runInserts(ds, false), relaxed: runInserts(ds, true) };
    inserts.set(ds, batches);
  }
  return options.relaxed ? batches.relaxed(runValues(run)) : batches.durable(runValues(run));
}

/** Removes a run that was stored but never queued (its request was refused meanwhile). */
export async function deleteQueuedRun(ds: DataSource, id: string): Promise<void> {
  await sql(ds, `DELETE FROM runs WHERE id = $1 AND status = 'queued'`, [id]);
}

/**
 * Makes a run's row durable and tells whether it exists. A synchronous commit flushes the write-ahead
 * log up to itself, so every earlier commit (a relaxed insert included) is on disk once it returns;
 * a row missing here was lost with a Postgres crash before it reached the disk.
 */
export async function confirmRunStored(ds: DataSource, id: string): Promise<boolean> {
  const rows = await sql(ds, `UPDATE runs SET queued_at = queued_at WHERE id = $1 RETURNING 1`, [id]);
  return rows.length > 0;
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

/**
 * Records failure with a client-safe error object; returns the final row (null if it had ended).
 * An execution passes the lease it holds as `owner` (null: a run claimed without a lease): for one
 * that no longer holds it nothing is written and `RunLeaseLostError` is thrown. Without `owner`
 * the failure is written whoever holds the run: only for the API failing a run it could not queue
 * and the worker giving up a job that is out of attempts, which passes `unlessLeased` so that an
 * execution still holding a live lease keeps its run (see `failAbandonedRun`).
 */
export async function failRun(
  ds: DataSource,
  id: string,
  error: RunError,
  options: { usage?: Run["usage"]; agents?: Run["agents"]; owner?: string | null; unlessLeased?: boolean } = {},
): Promise<Run | null> {
  const { usage, agents, owner, unlessLeased = false } = options;
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'failed', error = $2, usage = COALESCE($3, usage), agents = COALESCE($7, agents),
       finished_at = now(), execution_time = EXTRACT(EPOCH FROM (now() - COALESCE(started_at, queued_at)))
     WHERE id = $1 AND status IN ('queued', 'running') AND ($4 OR lease_owner IS NOT DISTINCT FROM $5::uuid)
       AND (NOT $6 OR lease_until IS NULL OR lease_until < now())
     RETURNING *`,
    [
      id,
      JSON.stringify(error),
      usage === undefined ? null : JSON.stringify(usage),
      owner === undefined,
      owner ?? null,
      unlessLeased,
      agents ? JSON.stringify(agents) : null,
    ],
  );
  if (!rows[0] && owner !== undefined) await assertLeaseHeld(ds, id, owner);
  return rows[0] ?? null;
}

/**
 * Stores what a cancelled run had spent and done when its execution stopped (the API marked it
 * cancelled; the execution holding its lease as `owner` knows its usage and its agents' outcomes).
 * Returns the cancelled row; throws `RunLeaseLostError` when another execution holds it.
 */
export async function recordCancelledUsage(
  ds: DataSource,
  id: string,
  spent: { usage: Run["usage"]; agents: Run["agents"] },
  owner: string | null,
): Promise<Run | null> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET usage = $2, agents = $4
      WHERE id = $1 AND status = 'cancelled' AND lease_owner IS NOT DISTINCT FROM $3
     RETURNING *`,
    [id, JSON.stringify(spent.usage), owner, JSON.stringify(spent.agents)],
  );
  if (!rows.length) await assertLeaseHeld(ds, id, owner);
  return rows[0] ?? null;
}

/** A run by its public job id, only when it belongs to the given user. */
export async function findRunForUser(ds: DataSource, jobId: string, userId: string): Promise<Run | null> {
  const rows = await sql<Run>(ds, `SELECT * FROM runs WHERE job_id = $1 AND user_id = $2`, [jobId, userId]);
  return rows[0] ?? null;
}

/** A run by id. */
export async function findRun(ds: DataSource, id: string): Promise<Run | null> {
  const rows = await sql<Run>(ds, `SELECT * FROM runs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The finished steps of a run, in order, for replay after a crash. */
export async function loadSteps(ds: DataSource, runId: string): Promise<RunStep[]> {
  return sql<RunStep>(ds, `SELECT * FROM run_steps WHERE run_id = $1 ORDER BY seq`, [runId]);
}

export function isTerminal(status: Run["status"]): boolean {
  return status === "succeeded" || status === "failed" || status === "cancelled";
}
