import type { DataSource } from "typeorm";
import type { Run, RunError } from "../entities/run.entity";
import { assertLeaseHeld } from "./run-leases";
import type { RunStep } from "../entities/run-step.entity";
import type { NewCharge } from "../run-charge-store";
import { STEP_COLUMNS } from "../run-step-store";
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

/** The ledger rows a run's execution had not stored yet when the run succeeded: they are stored with its completion. */
export interface UnsavedLedger {
  steps: readonly RunStep[];
  charges: readonly NewCharge[];
}

/** What a completion stored of the ledger rows it carried (a row stored already, or without the lease, is not). */
export interface StoredLedger {
  /** The `seq` of each step stored. */
  steps: number[];
  /** The `charge_key` of each charge stored. */
  charges: string[];
}

const NO_LEDGER: UnsavedLedger = { steps: [], charges: [] };

// Only the execution holding the run's lease (the row's last value) completes it.
const COMPLETE_SET = `status = 'succeeded', output = v.output, usage = v.usage, finished_at = now(),
  execution_time = EXTRACT(EPOCH FROM (now() - runs.started_at))`;
const COMPLETE_WHERE = `runs.id = v.id AND runs.status = 'running' AND runs.lease_owner IS NOT DISTINCT FROM v.owner`;

/**
 * Completions, each with the steps and charges its execution had not stored yet: one statement
 * stores those rows (as the background inserts would have: only under the run's lease, a row
 * stored already kept as it was) and completes the runs, so the last call of a run costs no
 * statement and no wait of its own, and the ledger is durable with the completion that bills it.
 */
const COMPLETE_WITH_LEDGER = `WITH v AS (
    SELECT * FROM unnest($1::uuid[], $2::jsonb[], $3::jsonb[], $4::uuid[], $5::jsonb[], $6::jsonb[])
      AS v(id, output, usage, owner, steps, charges)
  ), leased AS (
    SELECT v.id, v.steps, v.charges, jsonb_array_length(runs.retries) + 1 AS attempt
      FROM v JOIN runs ON runs.id = v.id AND runs.lease_owner IS NOT DISTINCT FROM v.owner
  ), new_steps AS (
    INSERT INTO run_steps (${STEP_COLUMNS}, attempt)
    SELECT leased.id, ${STEP_COLUMNS.replace("run_id, ", "").replace(/(\w+)/g, "s.$1")}, leased.attempt
      FROM leased, jsonb_populate_recordset(NULL::run_steps, leased.steps) s
    ON CONFLICT DO NOTHING RETURNING run_id, seq
  ), new_charges AS (
    INSERT INTO run_charges (run_id, charge_key, kind, agent_name, amount, attempt)
    SELECT leased.id, c.charge_key, c.kind, c.agent_name, c.amount, leased.attempt
      FROM leased, jsonb_populate_recordset(NULL::run_charges, leased.charges) c
    ON CONFLICT DO NOTHING RETURNING run_id, charge_key
  ), done AS (
    UPDATE runs SET ${COMPLETE_SET} FROM v WHERE ${COMPLETE_WHERE} RETURNING runs.*
  )
  SELECT done.*, v.id AS completing, v.owner AS completing_owner,
    ARRAY(SELECT seq FROM new_steps WHERE new_steps.run_id = v.id) AS stored_steps,
    ARRAY(SELECT charge_key FROM new_charges WHERE new_charges.run_id = v.id) AS stored_charges
  FROM v LEFT JOIN done ON done.id = v.id`;

/** A row of `COMPLETE_WITH_LEDGER`: the completed run's columns (null when it did not complete) and what was stored. */
type CompletionRow = Run & {
  completing: string;
  completing_owner: string | null;
  stored_steps: number[];
  stored_charges: string[];
};

type Completion = { row: Run | null; stored: StoredLedger };

const completionKey = (id: unknown, owner: unknown) => `${String(id)} ${String(owner)}`;

/** A success's values: the run's id, its output and usage as JSON text, the lease owner, its unsaved steps and charges as JSON text. */
const completeMany = async (ds: DataSource, successes: readonly Values[]): Promise<Completion[]> => {
  // Two completions of one run by one owner in a batch: only the first is written and told it
  // completed the run, as when they came one after the other and the second found the run no
  // longer running. Of completions by different owners, only the lease's owner's can match.
  const firsts = successes.filter(
    ([id, , , owner], i) => successes.findIndex(([other, , , by]) => other === id && by === owner) === i,
  );
  const rows = await sql<CompletionRow>(ds, COMPLETE_WITH_LEDGER, columnsOf(firsts));
  const byCompletion = new Map(rows.map((row) => [completionKey(row.completing, row.completing_owner), row]));
  return successes.map((values): Completion => {
    const found = firsts.includes(values) ? byCompletion.get(completionKey(values[0], values[3])) : undefined;
    if (!found) return { row: null, stored: { steps: [], charges: [] } };
    const { completing, completing_owner: by, stored_steps: steps, stored_charges: charges, ...row } = found;
    // A run another owner completed in the same batch comes back joined to this completion's values too.
    const completed = row.id === completing && row.lease_owner === by;
    return { row: completed ? (row as Run) : null, stored: { steps, charges } };
  });
};

const completions = new WeakMap<DataSource, (values: Values) => Promise<Completion>>();

function completionsOf(ds: DataSource) {
  let complete = completions.get(ds);
  if (!complete) {
    complete = statementBatch(
      (rows) => completeMany(ds, rows),
      (values) => completeMany(ds, [values]).then(([one]) => one),
      rowChars,
    );
    completions.set(ds, complete);
  }
  return complete;
}

/**
 * Records success, storing with it the steps and charges the execution had not stored yet, and
 * returns the final row (null when the run had been cancelled: it stays cancelled) and which of
 * those rows were stored. Only the execution holding the run's lease as `owner` (null: a run
 * claimed without a lease) completes it or stores its rows: for any other, nothing is written and
 * `RunLeaseLostError` is thrown.
 */
export async function completeRunWithLedger(
  ds: DataSource,
  id: string,
  result: { output: NonNullable<Run["output"]>; usage: Run["usage"]; ledger?: UnsavedLedger },
  owner: string | null,
): Promise<Completion> {
  const { steps, charges } = result.ledger ?? NO_LEDGER;
  const done = await completionsOf(ds)([
    id,
    JSON.stringify(result.output),
    JSON.stringify(result.usage),
    owner,
    JSON.stringify(steps),
    JSON.stringify(charges),
  ]);
  if (!done.row) await assertLeaseHeld(ds, id, owner);
  return done;
}

/** Records success (see `completeRunWithLedger`) of a run with no ledger rows left to store; returns the final row. */
export async function completeRun(
  ds: DataSource,
  id: string,
  output: NonNullable<Run["output"]>,
  usage: Run["usage"],
  owner: string | null,
): Promise<Run | null> {
  return (await completeRunWithLedger(ds, id, { output, usage }, owner)).row;
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
     WHERE job_id = $1 AND user_id = $2 AND status IN ('queued', 'running', 'awaiting_approval') RETURNING id`,
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
