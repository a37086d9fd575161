import type { DataSource } from "typeorm";
import type { RunStep } from "./entities/run-step.entity";
import { assertLeaseHeld } from "./runs/run-leases";
import { sql } from "./sql";
import { columnsOf, rowChars, statementBatch } from "./statement-batch";

/**
 * A run's steps (`run_steps`), one row per finished LLM or tool call: stored by the execution
 * holding the run's lease as each call finishes, read back to replay them after a crash and to
 * show a run's progress. Many runs' calls finish together under load, so step inserts are
 * group-committed (`statementBatch`) in one statement of arrays (`unnest`), prepared once per
 * connection like every hot-path statement.
 */

/** The columns of `run_steps` a step is stored with, in the order its values come. */
export const STEP_COLUMNS = `run_id, seq, step_key, agent_name, role, input, output, model, provider,
  input_tokens, output_tokens, cost, upstream_cost, started_at, finished_at, status`;

/** One step's values, in STEP_COLUMNS order, JSON columns as text. */
function stepValues(step: RunStep): unknown[] {
  return [
    step.run_id,
    step.seq,
    step.step_key,
    step.agent_name,
    step.role,
    JSON.stringify(step.input),
    JSON.stringify(step.output),
    step.model,
    step.provider,
    step.input_tokens,
    step.output_tokens,
    step.cost,
    step.upstream_cost,
    step.started_at,
    step.finished_at,
    step.status,
  ];
}

type Values = unknown[];

/**
 * Steps are written only while their execution holds the run's lease (the owner is the last value
 * of each row; null for a run claimed without one). The owner is read without locking the run's
 * row: a share lock would make every completion wait for the steps inserted beside it, and batches
 * locking rows in different orders could deadlock. So a claim committed while the statement runs
 * (well under a millisecond) may still see that step stored; it is a call the stale execution did
 * make, and the run's result stays its new owner's, whose completion is checked under the row's
 * lock. Each step is stored as its run's current attempt's (the run's retries so far, plus one).
 * Returns, per row, whether it was stored (false: the lease is gone, or the step was stored
 * already); rows are told apart by their position, as two executions may send the same step in
 * one batch.
 */
const insertManySteps = async (ds: DataSource, rows: readonly Values[]) => {
  const stored = await sql<{ i: string }>(
    ds,
    `WITH allowed AS (
       SELECT v.*, jsonb_array_length(runs.retries) + 1 AS attempt
         FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[],
         $8::text[], $9::text[], $10::int[], $11::int[], $12::float8[], $13::float8[], $14::timestamptz[],
         $15::timestamptz[], $16::text[], $17::uuid[]) WITH ORDINALITY
         AS v(run_id, seq, step_key, agent_name, role, input, output, model, provider, input_tokens, output_tokens,
           cost, upstream_cost, started_at, finished_at, status, owner, i)
       JOIN runs ON runs.id = v.run_id AND runs.lease_owner IS NOT DISTINCT FROM v.owner
     ), inserted AS (
       INSERT INTO run_steps (${STEP_COLUMNS}, attempt)
       SELECT run_id, seq, step_key, agent_name, role, input, output, model, provider, input_tokens, output_tokens,
         cost, upstream_cost, started_at, finished_at, status, attempt
       FROM allowed ORDER BY i
       ON CONFLICT DO NOTHING
       RETURNING run_id, seq
     )
     SELECT allowed.i FROM allowed JOIN inserted USING (run_id, seq)`,
    columnsOf([...rows]),
    { relaxed: true }, // a lost step only means its call is made again on a retry (see `sql`)
  );
  const positions = new Set(stored.map((row) => Number(row.i) - 1));
  return rows.map((_, i) => positions.has(i));
};

const stepInserts = new WeakMap<DataSource, (values: Values) => Promise<boolean>>();

function stepInsertsOf(ds: DataSource) {
  let insert = stepInserts.get(ds);
  if (!insert) {
    insert = statementBatch(
      (rows) => insertManySteps(ds, rows),
      (values) => insertManySteps(ds, [values]).then(([stored]) => stored),
      rowChars,
    );
    stepInserts.set(ds, insert);
  }
  return insert;
}

/**
 * Stores one step of the execution holding the run's lease as `owner` (null: a run claimed
 * without a lease); true when it was stored, false when it was stored already (a racing
 * duplicate, kept as it was). Throws `RunLeaseLostError`, storing nothing, when the lease has
 * passed to another execution.
 */
export async function insertStep(ds: DataSource, step: RunStep, owner: string | null): Promise<boolean> {
  const stored = await stepInsertsOf(ds)([...stepValues(step), owner]);
  if (!stored) await assertLeaseHeld(ds, step.run_id, owner);
  return stored;
}

/** The finished steps of a run, in order, for replay after a crash. */
export async function loadSteps(ds: DataSource, runId: string): Promise<RunStep[]> {
  return sql<RunStep>(ds, `SELECT * FROM run_steps WHERE run_id = $1 ORDER BY seq`, [runId]);
}

/** What a run's progress shows of one finished step: never its input or output. */
export type StepSummary = Pick<
  RunStep,
  "agent_name" | "role" | "model" | "input_tokens" | "output_tokens" | "cost" | "finished_at"
>;

/** The finished steps of a run, in the order they finished, without their messages. */
export async function loadStepSummaries(ds: DataSource, runId: string): Promise<StepSummary[]> {
  return sql<StepSummary>(
    ds,
    `SELECT agent_name, role, model, input_tokens, output_tokens, cost, finished_at
       FROM run_steps WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
}
