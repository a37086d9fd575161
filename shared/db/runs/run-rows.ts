import type { DataSource } from "typeorm";
import type { Run, RunKind } from "../entities/run.entity";
import type { StoredSecret } from "../../secrets/run-secrets";
import { sql, type Queryable } from "../sql";
import { columnsOf, rowChars, statementBatch } from "../statement-batch";

/**
 * A run's row: stored queued by the API (the row exists before its job), made durable, read. How
 * it is leased, claimed and ended is in `run-leases` and `run-results`. Every statement here runs
 * once per request, so each is a single round trip (no ORM hydration, no read-before-write).
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
  /** Where the run's end is reported (checked by the egress policy before it is stored). */
  webhookUrl?: string | null;
}

const RUN_COLUMNS =
  "id, job_id, kind, parent_id, api_key_id, user_id, status, request, sealed_secrets, service_tier, webhook_url";

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
    run.webhookUrl ?? null,
  ];
}

function runInserts(ds: DataSource, relaxed: boolean) {
  return statementBatch<unknown[], void>(
    async (rows) => {
      await sql(
        ds,
        `INSERT INTO runs (${RUN_COLUMNS})
         SELECT id, id::text, kind, parent_id, api_key_id, user_id, 'queued', request, sealed_secrets, service_tier, webhook_url
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[], $6::jsonb[], $7::jsonb[], $8::text[], $9::text[])
           AS v(id, kind, parent_id, api_key_id, user_id, request, sealed_secrets, service_tier, webhook_url)`,
        columnsOf([...rows]),
        { relaxed },
      );
      return rows.map(() => undefined);
    },
    async ([id, ...rest]) => {
      await sql(
        ds,
        `INSERT INTO runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8, $9, $10)`,
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

/**
 * Stores the queued run of a token launch (`token_launch` for a listing's launch, `prompt_tokenize` for a prompt's)
 * inside the transaction that stores the launch, so that they commit together.
 */
export async function insertLaunchRun(
  tx: Queryable,
  kind: "token_launch" | "prompt_tokenize",
  run: { runId: string; apiKeyId: string | null; userId: string; request: unknown },
): Promise<void> {
  await sql(
    tx,
    `INSERT INTO runs (id, job_id, kind, api_key_id, user_id, status, request) VALUES ($1::uuid, $1::text, $2, $3, $4, 'queued', $5)`,
    [run.runId, kind, run.apiKeyId, run.userId, JSON.stringify(run.request)],
  );
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

/** Whether a run has ended: succeeded, failed or cancelled. */
export function isTerminal(status: Run["status"]): boolean {
  return status === "succeeded" || status === "failed" || status === "cancelled";
}
