import type { DataSource } from "typeorm";
import { sql } from "./sql";

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
