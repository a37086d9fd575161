import type { DataSource } from "typeorm";
import { APPROVAL_ROLE, type ApprovalDecision, type PendingApproval } from "../../approvals/approval-gates";
import type { Run, RunError } from "../entities/run.entity";
import { sql } from "../sql";
import { assertLeaseHeld } from "./run-leases";

/*
 * A run's approval gate in Postgres: the execution holding the run parks it (`awaiting_approval`,
 * its lease let go of), the client's decision re-queues it with the decisions stored as steps the
 * continuation replays, and a parked run left past its deadline fails.
 */

/**
 * Parks the run the execution `owner` holds: its pending calls and usage so far are stored and its
 * lease is let go of, so no execution holds it while it waits. Null when it was cancelled
 * meanwhile; throws `RunLeaseLostError` when another execution holds it.
 */
export async function parkRun(
  ds: DataSource,
  id: string,
  pending: PendingApproval,
  usage: Run["usage"],
  owner: string | null,
): Promise<Run | null> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'awaiting_approval', pending_approval = $2, usage = COALESCE($3, usage),
       lease_owner = NULL, lease_until = NULL
     WHERE id = $1 AND status = 'running' AND lease_owner IS NOT DISTINCT FROM $4::uuid
     RETURNING *`,
    [id, JSON.stringify(pending), usage === undefined ? null : JSON.stringify(usage), owner],
  );
  if (!rows[0]) await assertLeaseHeld(ds, id, owner);
  return rows[0] ?? null;
}

/** One decision on a pending call, stored as the first step of the call's lane. */
export interface StoredDecision {
  step_key: string;
  agent_name: string;
  tool: string;
  arguments: string;
  decision: ApprovalDecision;
}

/**
 * The client's decisions on the run it parked at `since`: in one statement the run goes back to
 * `queued` and each decision is stored as a step. Only one of two concurrent decisions finds the
 * run still parked (the other changes nothing); returns whether this one did.
 */
export async function decideParkedRun(
  ds: DataSource,
  id: string,
  since: string,
  decisions: StoredDecision[],
): Promise<boolean> {
  const rows = await sql<{ id: string }>(
    ds,
    `WITH won AS (
       UPDATE runs SET status = 'queued', pending_approval = NULL
        WHERE id = $1 AND status = 'awaiting_approval' AND pending_approval->>'since' = $2
       RETURNING id
     ), base AS (SELECT COALESCE(max(seq) + 1, 0) AS seq FROM run_steps WHERE run_id = $1),
     stored AS (
       INSERT INTO run_steps (run_id, seq, step_key, agent_name, role, input, output, model,
         input_tokens, output_tokens, cost, started_at, finished_at, status)
       SELECT won.id, base.seq + v.i - 1, v.step_key, v.agent_name, $8, v.input, v.output, 'approval:' || v.tool,
         0, 0, 0, $2::timestamptz, now(), 'finished'
       FROM won, base, unnest($3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY
         AS v(step_key, agent_name, tool, input, output, i)
     )
     SELECT id FROM won`,
    [
      id,
      since,
      decisions.map((d) => d.step_key),
      decisions.map((d) => d.agent_name),
      decisions.map((d) => d.tool),
      decisions.map((d) => JSON.stringify({ tool: d.tool, arguments: d.arguments })),
      decisions.map((d) => JSON.stringify(d.decision)),
      APPROVAL_ROLE,
    ],
  );
  return rows.length > 0;
}

/** Fails a run still parked at its deadline; null when it is not parked any more (decided or cancelled). */
export async function expireParkedRun(ds: DataSource, id: string, error: RunError): Promise<Run | null> {
  const rows = await sql<Run>(
    ds,
    `UPDATE runs SET status = 'failed', error = $2, finished_at = now(),
       execution_time = EXTRACT(EPOCH FROM (now() - COALESCE(started_at, queued_at)))
     WHERE id = $1 AND status = 'awaiting_approval'
     RETURNING *`,
    [id, JSON.stringify(error)],
  );
  return rows[0] ?? null;
}

/** Whether the run is still parked (no decision yet, not cancelled). */
export async function isParked(ds: DataSource, id: string): Promise<boolean> {
  const rows = await sql<{ status: string }>(ds, `SELECT status FROM runs WHERE id = $1`, [id]);
  return rows[0]?.status === "awaiting_approval";
}
