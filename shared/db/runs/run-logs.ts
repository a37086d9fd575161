import type { DataSource } from "typeorm";
import type { Run } from "../entities/run.entity";
import { sql } from "../sql";

/** What a run log shows of a run. */
export type RunLogRow = Pick<
  Run,
  | "job_id"
  | "kind"
  | "status"
  | "request"
  | "output"
  | "usage"
  | "error"
  | "execution_time"
  | "queued_at"
  | "finished_at"
>;

/**
 * The runs made with one API key (never another key's, even of the same user), newest first.
 * The user id narrows the scan to the `(user_id, queued_at DESC)` index; the key decides.
 */
export function listRunsOfKey(
  ds: DataSource,
  owner: { apiKeyId: string; userId: string },
  page: { limit: number; offset: number },
): Promise<RunLogRow[]> {
  return sql<RunLogRow>(
    ds,
    `SELECT job_id, kind, status, request, output, usage, error, execution_time, queued_at, finished_at
       FROM runs
      WHERE user_id = $1 AND api_key_id = $2
      ORDER BY queued_at DESC, job_id DESC
      LIMIT $3 OFFSET $4`,
    [owner.userId, owner.apiKeyId, page.limit, page.offset],
  );
}
