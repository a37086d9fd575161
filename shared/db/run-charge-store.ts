import type { DataSource } from "typeorm";
import type { ChargeKind, RunCharge } from "./entities/run-charge.entity";
import { assertLeaseHeld } from "./runs/run-leases";
import { sql } from "./sql";
import { columnsOf, statementBatch } from "./statement-batch";

/** A charge as a run's execution records it. */
export type NewCharge = Pick<RunCharge, "run_id" | "charge_key" | "kind" | "agent_name" | "amount">;

type Values = [string, string, ChargeKind, string | null, number, string | null];

/**
 * Charges of executions holding their runs' leases (the owner is each row's last value), many
 * in one statement as steps are (each as its run's current attempt's); per row, whether it was stored (false: stored already, or the
 * lease is gone).
 */
const insertMany = async (ds: DataSource, rows: readonly Values[]) => {
  const stored = await sql<{ i: string }>(
    ds,
    `WITH allowed AS (
       SELECT v.*, jsonb_array_length(runs.retries) + 1 AS attempt
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::uuid[]) WITH ORDINALITY
         AS v(run_id, charge_key, kind, agent_name, amount, owner, i)
       JOIN runs ON runs.id = v.run_id AND runs.lease_owner IS NOT DISTINCT FROM v.owner
     ), inserted AS (
       INSERT INTO run_charges (run_id, charge_key, kind, agent_name, amount, attempt)
       SELECT run_id, charge_key, kind, agent_name, amount, attempt FROM allowed ORDER BY i
       ON CONFLICT DO NOTHING
       RETURNING run_id, charge_key
     )
     SELECT allowed.i FROM allowed JOIN inserted USING (run_id, charge_key)`,
    columnsOf([...rows]),
    { relaxed: true }, // as a step's: the retried job that would redo the charge finds it missing and makes it again
  );
  const positions = new Set(stored.map((row) => Number(row.i) - 1));
  return rows.map((_, i) => positions.has(i));
};

const batches = new WeakMap<DataSource, (values: Values) => Promise<boolean>>();

/**
 * Stores a charge of the execution holding the run's lease as `owner` (null: a run claimed
 * without a lease); true when stored, false when a charge of that key was stored already. Throws
 * `RunLeaseLostError` when the lease has passed to another execution.
 */
export async function insertCharge(ds: DataSource, charge: NewCharge, owner: string | null): Promise<boolean> {
  let insert = batches.get(ds);
  if (!insert) {
    insert = statementBatch(
      (rows) => insertMany(ds, rows),
      (values) => insertMany(ds, [values]).then(([stored]) => stored),
    );
    batches.set(ds, insert);
  }
  const { run_id: runId, charge_key: key, kind, agent_name: agent, amount } = charge;
  const stored = await insert([runId, key, kind, agent, amount, owner]);
  if (!stored) await assertLeaseHeld(ds, runId, owner);
  return stored;
}

/** A run's charges, for a retried job to find the ones it made already. */
export function loadCharges(ds: DataSource, runId: string): Promise<RunCharge[]> {
  return sql<RunCharge>(ds, `SELECT * FROM run_charges WHERE run_id = $1`, [runId]);
}
