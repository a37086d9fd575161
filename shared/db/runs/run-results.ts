import type { DataSource } from "typeorm";
import type { Run } from "../entities/run.entity";
import type { RunStep } from "../entities/run-step.entity";
import { assertLeaseHeld } from "./run-leases";
import { sql } from "../sql";
import { columnsOf, rowChars, statementBatch } from "../statement-batch";

/**
 * The two writes a worker makes as its runs' LLM calls finish: a finished step, and a run's
 * success. Many runs finish together under load, so each is group-committed (`statementBatch`):
 * the rows of one round of I/O travel as arrays in one statement (`unnest`), whose text stays
 * constant whatever the row count, so it is prepared once per connection like every hot-path
 * statement.
 */

const STEP_COLUMNS = `run_id, seq, step_key, agent_name, role, input, output, model, provider,
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
 * lock. Returns, per row, whether it was stored (false: the lease is gone, or the step was stored
 * already); rows are told apart by their position, as two executions may send the same step in
 * one batch.
 */
const insertManySteps = async (ds: DataSource, rows: readonly Values[]) => {
  const stored = await sql<{ i: string }>(
    ds,
    `WITH allowed AS (
       SELECT v.* FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[],
         $8::text[], $9::text[], $10::int[], $11::int[], $12::float8[], $13::float8[], $14::timestamptz[],
         $15::timestamptz[], $16::text[], $17::uuid[]) WITH ORDINALITY
         AS v(run_id, seq, step_key, agent_name, role, input, output, model, provider, input_tokens, output_tokens,
           cost, upstream_cost, started_at, finished_at, status, owner, i)
       JOIN runs ON runs.id = v.run_id AND runs.lease_owner IS NOT DISTINCT FROM v.owner
     ), inserted AS (
       INSERT INTO run_steps (${STEP_COLUMNS})
       SELECT run_id, seq, step_key, agent_name, role, input, output, model, provider, input_tokens, output_tokens,
         cost, upstream_cost, started_at, finished_at, status
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

const batches = new WeakMap<
  DataSource,
  { step: (values: Values) => Promise<boolean>; complete: (values: Values) => Promise<Run | null> }
>();

function batchesOf(ds: DataSource) {
  let found = batches.get(ds);
  if (!found) {
    found = {
      step: statementBatch(
        (rows) => insertManySteps(ds, rows),
        (values) => insertManySteps(ds, [values]).then(([stored]) => stored),
        rowChars,
      ),
      complete: statementBatch(
        (rows) => completeMany(ds, rows),
        (values) => completeOne(ds, values),
        rowChars,
      ),
    };
    batches.set(ds, found);
  }
  return found;
}

/**
 * Stores one step of the execution holding the run's lease as `owner` (null: a run claimed
 * without a lease); true when it was stored, false when it was stored already (a racing
 * duplicate, kept as it was). Throws `RunLeaseLostError`, storing nothing, when the lease has
 * passed to another execution.
 */
export async function insertStep(ds: DataSource, step: RunStep, owner: string | null): Promise<boolean> {
  const stored = await batchesOf(ds).step([...stepValues(step), owner]);
  if (!stored) await assertLeaseHeld(ds, step.run_id, owner);
  return stored;
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
  const row = await batchesOf(ds).complete([id, JSON.stringify(output), JSON.stringify(usage), owner]);
  if (!row) await assertLeaseHeld(ds, id, owner);
  return row;
}
