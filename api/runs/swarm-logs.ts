import type { DataSource } from "typeorm";
import type { Run } from "../../shared/db/entities/run.entity";
import { sql } from "../../shared/db/sql";
import { PUBLIC_STATUS } from "./presenters/run-status";

/** One entry of `GET /v1/swarm/logs`. */
export interface RunLog {
  id: string;
  created_at: string;
  category: Run["kind"];
  data: {
    status: string;
    request: unknown;
    output: unknown;
    usage: unknown;
    error: unknown;
    execution_time: number | null;
    finished_at: string | null;
  };
}

type LogRow = Pick<
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

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The runs made with one API key (never another key's, even of the same user), newest first.
 * The user id narrows the scan to the `(user_id, queued_at DESC)` index; the key decides.
 */
export async function listRunLogs(
  ds: DataSource,
  owner: { apiKeyId: string; userId: string },
  page: { limit: number; offset: number },
): Promise<RunLog[]> {
  const rows = await sql<LogRow>(
    ds,
    `SELECT job_id, kind, status, request, output, usage, error, execution_time, queued_at, finished_at
       FROM runs
      WHERE user_id = $1 AND api_key_id = $2
      ORDER BY queued_at DESC, job_id DESC
      LIMIT $3 OFFSET $4`,
    [owner.userId, owner.apiKeyId, page.limit, page.offset],
  );
  return rows.map((row) => ({
    id: row.job_id,
    created_at: iso(row.queued_at)!,
    category: row.kind,
    data: {
      status: PUBLIC_STATUS[row.status] ?? row.status,
      request: row.request,
      output: row.output,
      usage: row.usage,
      error: row.error,
      execution_time: row.execution_time,
      finished_at: iso(row.finished_at),
    },
  }));
}
