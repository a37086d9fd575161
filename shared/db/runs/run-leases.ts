import type { DataSource } from "typeorm";
import { sql } from "../sql";

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
