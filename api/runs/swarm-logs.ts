import type { DataSource } from "typeorm";
import type { Run } from "../../shared/db/entities/run.entity";
import { listRunsOfKey } from "../../shared/db/run-store";
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

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The log of the runs made with one API key, newest first (see `listRunsOfKey`). */
export async function listRunLogs(
  ds: DataSource,
  owner: { apiKeyId: string; userId: string },
  page: { limit: number; offset: number },
): Promise<RunLog[]> {
  const rows = await listRunsOfKey(ds, owner, page);
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
