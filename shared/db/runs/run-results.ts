import type { DataSource } from "typeorm";
import type { Run, RunError } from "../entities/run.entity";
import { assertLeaseHeld } from "./run-leases";
import { sql } from "../sql";
import { columnsOf, rowChars, statementBatch } from "../statement-batch";

/**
 * A run's result, the one home for how a run ends: its success and its failure (written by the
 * execution holding its lease), its cancellation (by the API) and what a cancelled run had spent.
 * Many runs succeed together under load, so a success is group-committed (`statementBatch`): the
 * rows of one round of I/O travel as arrays in one statement (`unnest`), whose text stays constant
 * whatever the row count, so it is prepared once per connection like every hot-path statement.
 */

type Values = unknown[];

// Only the execution holding the run's lease (the row's last value) completes it.
const COMPLETE_SET = `status = 'succeeded', output = v.output, usage = v.usage, finished_at = now(),
  execution_time = EXTRACT(EPOCH FROM (now() - runs.started_at))`;
const COMPLETE_WHERE = `runs.id = v.id AND runs.status = 'running' AND runs.lease_owner IS NOT DISTINCT FROM v.owner`;

/** A success's values: the run's id, its output and usage as JSON text, the lease owner. */
const completeOne = async (ds: DataSource, values: Values) => {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET ${COMPLETE_SET}
     FROM (SELECT $1::uuid AS id, $2::jsonb AS output, $3::jsonb AS usage, $4::uuid AS owner) v
     WHERE ${COMPLETE_WHERE} RETURNING runs.*`,
    values,
  );
  return rows[0] ?? null;
};

const completeMany = async (ds: DataSource, successes: readonly Values[]) => {
  // Two completions of one run by one owner in a batch: only the first is written and told it
  // completed the run, as when they came one after the other and the second found the run no
  // longer running. Of completions by different owners, only the lease's owner's can match.
  const firsts = successes.filter(
    ([id, , , owner], i) => successes.findIndex(([other, , , by]) => other === id && by === owner) === i,
  );
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET ${COMPLETE_SET}
     FROM unnest($1::uuid[], $2::jsonb[], $3::jsonb[], $4::uuid[]) AS v(id, output, usage, owner)
     WHERE ${COMPLETE_WHERE} RETURNING runs.*`,
    columnsOf(firsts),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return successes.map((values): Run | null => {
    const row = byId.get(values[0] as string);
    return row && firsts.includes(values) && row.lease_owner === values[3] ? row : null;
  });
};

const completions = new WeakMap<DataSource, (values: Values) => Promise<Run | null>>();

function completionsOf(ds: DataSource) {
  let complete = completions.get(ds);
  if (!complete) {
    complete = statementBatch(
      (rows) => completeMany(ds, rows),
      (values) => completeOne(ds, values),
      rowChars,
    );
    completions.set(ds, complete);
  }
  return complete;
}

/**
 * Records success and returns the final row. Only a running run can succeed (a cancelled one stays
 * cancelled, and then null comes back), and only by the execution holding its lease as `owner`
 * (null: a run claimed without a lease): for any other, nothing is written and `RunLeaseLostError`
 * is thrown.
 */
export async function completeRun(
  ds: DataSource,
  id: string,
  output: NonNullable<Run["output"]>,
  usage: Run["usage"],
  owner: string | null,
): Promise<Run | null> {
  const row = await completionsOf(ds)([id, JSON.stringify(output), JSON.stringify(usage), owner]);
  if (!row) await assertLeaseHeld(ds, id, owner);
  return row;
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

/** What a cancelled run's row says, the code its answer (409 `RUN_CANCELLED`) gives too. */
const CANCELLED = JSON.stringify({ message: "The run was cancelled", code: "RUN_CANCELLED" });

/**
 * Marks a run of a user cancelled if it has not ended, and a batch's items that have not ended with
 * it. Returns the resulting status and the ids of every run it cancelled (the run's first), whose
 * workers are to stop them; null when the user has no such run.
 */
export async function cancelRun(
  ds: DataSource,
  jobId: string,
  userId: string,
): Promise<{ id: string; status: string; changed: boolean; cancelled: string[] } | null> {
  const changed = await sql<{ id: string }>(
    ds,
    `UPDATE runs SET status = 'cancelled', finished_at = now(), error = $3,
       execution_time = EXTRACT(EPOCH FROM (now() - COALESCE(started_at, queued_at)))
     WHERE job_id = $1 AND user_id = $2 AND status IN ('queued', 'running') RETURNING id`,
    [jobId, userId, CANCELLED],
  );
  if (changed[0]) {
    // Children of a batch go with it.
    const children = await sql<{ id: string }>(
      ds,
      `UPDATE runs SET status = 'cancelled', finished_at = now(), error = $2,
         execution_time = EXTRACT(EPOCH FROM (now() - COALESCE(started_at, queued_at)))
       WHERE parent_id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [changed[0].id, CANCELLED],
    );
    const cancelled = [changed[0].id, ...children.map((c) => c.id)];
    return { id: changed[0].id, status: "cancelled", changed: true, cancelled };
  }
  const rows = await sql<{ id: string; status: string }>(
    ds,
    `SELECT id, status FROM runs WHERE job_id = $1 AND user_id = $2`,
    [jobId, userId],
  );
  return rows[0] ? { ...rows[0], changed: false, cancelled: [] } : null;
}
