import type { DataSource } from "typeorm";
import { sql } from "./sql";

/**
 * Marks a run of a user cancelled if it has not ended. Returns the resulting status, or null when
 * the user has no such run.
 */
export async function cancelRun(
  ds: DataSource,
  jobId: string,
  userId: string,
): Promise<{ id: string; status: string; changed: boolean } | null> {
  const changed = await sql<{ id: string }>(
    ds,
    `UPDATE runs SET status = 'cancelled', finished_at = now(), error = '{"message":"The run was cancelled","code":"CANCELLED"}',
       execution_time = EXTRACT(EPOCH FROM (now() - COALESCE(started_at, queued_at)))
     WHERE job_id = $1 AND user_id = $2 AND status IN ('queued', 'running') RETURNING id`,
    [jobId, userId],
  );
  if (changed[0]) {
    // Children of a batch go with it.
    await sql(
      ds,
      `UPDATE runs SET status = 'cancelled', finished_at = now() WHERE parent_id = $1 AND status IN ('queued', 'running')`,
      [changed[0].id],
    );
    return { id: changed[0].id, status: "cancelled", changed: true };
  }
  const rows = await sql<{ id: string; status: string }>(
    ds,
    `SELECT id, status FROM runs WHERE job_id = $1 AND user_id = $2`,
    [jobId, userId],
  );
  return rows[0] ? { ...rows[0], changed: false } : null;
}
