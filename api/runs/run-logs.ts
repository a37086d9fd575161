import type { DataSource } from "typeorm";
import type { Run } from "../../shared/db/entities/run.entity";
import { listRunsOfKey, type RunLogRow } from "../../shared/db/runs/run-logs";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";

/** One entry of `GET /v1/swarm/logs`. */
interface RunLog {
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

/** `GET /v1/swarm/logs`'s body. */
export interface RunLogs {
  status: "success";
  count: number;
  logs: RunLog[];
  timestamp: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function presentLog(row: RunLogRow): RunLog {
  return {
    id: row.job_id,
    created_at: iso(row.queued_at),
    category: row.kind,
    data: {
      status: PUBLIC_STATUS[row.status] ?? row.status,
      request: row.request,
      output: row.output,
      usage: row.usage,
      error: row.error,
      execution_time: row.execution_time,
      finished_at: row.finished_at === null ? null : iso(row.finished_at),
    },
  };
}

/** `GET /v1/swarm/logs`: a page of the runs made with the caller's API key, newest first. */
export async function listRunLogs(
  ds: DataSource,
  owner: { apiKeyId: string; userId: string },
  page: { limit: number; offset: number },
): Promise<RunLogs> {
  const logs = (await listRunsOfKey(ds, owner, page)).map(presentLog);
  return { status: "success", count: logs.length, logs, timestamp: new Date().toISOString() };
}
