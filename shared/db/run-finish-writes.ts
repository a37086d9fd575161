import type { DataSource } from "typeorm";
import type { Run } from "./entities/run.entity";
import type { RunStep } from "./entities/run-step.entity";
import { sql } from "./sql";
import { columnsOf, rowBytes, statementBatch } from "./statement-batch";

/**
 * The two writes a worker makes as its runs' LLM calls finish: a finished step, and a run's
 * success. Many runs finish together under load, so each is group-committed (`statementBatch`):
 * the rows of one round of I/O travel as arrays in one statement (`unnest`), whose text stays
 * constant whatever the row count, so it is prepared once per connection like every hot-path
 * statement.
 */

const STEP_COLUMNS = `run_id, seq, step_key, agent_name, role, input, output, model, provider,
  input_tokens, output_tokens, cost, upstream_cost, started_at, finished_at`;

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
  ];
}

type Values = unknown[];

// A lost step only means its call is made again on a retry: relaxed commits (see `sql`).
const insertOneStep = (ds: DataSource, values: Values) =>
  sql(
    ds,
    `INSERT INTO run_steps (${STEP_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT DO NOTHING`,
    values,
    { relaxed: true },
  ).then(() => undefined);

const insertManySteps = async (ds: DataSource, rows: readonly Values[]) => {
  await sql(
    ds,
    `INSERT INTO run_steps (${STEP_COLUMNS})
     SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[],
       $8::text[], $9::text[], $10::int[], $11::int[], $12::float8[], $13::float8[], $14::timestamptz[],
       $15::timestamptz[])
     ON CONFLICT DO NOTHING`,
    columnsOf([...rows]),
    { relaxed: true },
  );
  return rows.map(() => undefined);
};

const COMPLETE_SET = `status = 'succeeded', output = v.output, usage = v.usage, finished_at = now(),
  execution_time = EXTRACT(EPOCH FROM (now() - runs.started_at))`;

/** A success's values: the run's id, its output and usage as JSON text. */
const completeOne = async (ds: DataSource, values: Values) => {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET ${COMPLETE_SET} FROM (SELECT $1::uuid AS id, $2::jsonb AS output, $3::jsonb AS usage) v
     WHERE runs.id = v.id AND runs.status = 'running' RETURNING runs.*`,
    values,
  );
  return rows[0] ?? null;
};

const completeMany = async (ds: DataSource, successes: readonly Values[]) => {
  // Two completions of one run in a batch: only the first is written and told it completed the
  // run, as when they came one after the other and the second found the run no longer running.
  const firsts = successes.filter(([id], i) => successes.findIndex(([other]) => other === id) === i);
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET ${COMPLETE_SET} FROM unnest($1::uuid[], $2::jsonb[], $3::jsonb[]) AS v(id, output, usage)
     WHERE runs.id = v.id AND runs.status = 'running' RETURNING runs.*`,
    columnsOf(firsts),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return successes.map((values) => (firsts.includes(values) ? (byId.get(values[0] as string) ?? null) : null));
};

const batches = new WeakMap<
  DataSource,
  { step: (values: Values) => Promise<void>; complete: (values: Values) => Promise<Run | null> }
>();

function batchesOf(ds: DataSource) {
  let found = batches.get(ds);
  if (!found) {
    found = {
      step: statementBatch(
        (rows) => insertManySteps(ds, rows),
        (values) => insertOneStep(ds, values),
        rowBytes,
      ),
      complete: statementBatch(
        (rows) => completeMany(ds, rows),
        (values) => completeOne(ds, values),
        rowBytes,
      ),
    };
    batches.set(ds, found);
  }
  return found;
}

/** Stores one finished step. A step already stored (a racing duplicate) is kept as it was. */
export function insertStep(ds: DataSource, step: RunStep): Promise<void> {
  return batchesOf(ds).step(stepValues(step));
}

/**
 * Records success and returns the final row; only a running run can succeed (a cancelled one
 * stays cancelled, and then null comes back).
 */
export function completeRun(
  ds: DataSource,
  id: string,
  output: NonNullable<Run["output"]>,
  usage: Run["usage"],
): Promise<Run | null> {
  return batchesOf(ds).complete([id, JSON.stringify(output), JSON.stringify(usage)]);
}
