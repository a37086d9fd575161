import type { DataSource } from "typeorm";
import type { Run, RunKind, RunStatus } from "../entities/run.entity";
import { sql } from "../sql";

/** What a run list shows of a run: its summary, never its request or output. */
export interface RunSummaryRow {
  id: string;
  job_id: string;
  kind: RunKind;
  status: RunStatus;
  item_index: number | null;
  parent_job_id: string | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** The bill the run stored (an agent's `total_cost`, a swarm's `billing_info.total_cost`), as text. */
  billed_cost: string | null;
  model: string | null;
  swarm_type: string | null;
  /** `queued_at` in microseconds since the epoch, as text: the exact key of the next page. */
  queued_at_us: string;
}

/** Where the list starts: after the run with this key, in `(queued_at, id)` descending order. */
export interface RunListKey {
  queuedAtUs: string;
  id: string;
}

/** Which of an account's runs to list: each filter left out lists every run. */
export interface RunListFilter {
  /** Top-level runs (the default), every run, or the items of one batch (its run id). */
  scope: { top: true } | { all: true } | { parentId: string };
  statuses?: RunStatus[];
  kinds?: RunKind[];
  createdAfter?: Date;
  createdBefore?: Date;
}

const COLUMNS = `r.id, r.job_id, r.kind, r.status, r.item_index, p.job_id AS parent_job_id,
  r.queued_at, r.started_at, r.finished_at,
  COALESCE(r.usage ->> 'total_cost', r.usage -> 'billing_info' ->> 'total_cost') AS billed_cost,
  COALESCE(r.request -> 'agent_config' ->> 'model_name', r.request ->> 'model_name') AS model,
  r.request ->> 'swarm_type' AS swarm_type,
  ((EXTRACT(EPOCH FROM r.queued_at) * 1000000)::bigint)::text AS queued_at_us`;

/**
 * The statement of one page of an account's runs, newest first, keyed on `(queued_at, id)` so that
 * runs inserted while a client pages never shift it. The text holds only the conditions the filter
 * asks for (a bounded set of texts): the default scan walks `runs_user_top_level_idx`, a single
 * status `runs_user_status_top_level_idx`, a batch's items `runs_parent_idx`, and every scan stops
 * after `limit` rows. Exported so a test can ask Postgres for its plan.
 */
export function runListStatement(
  userId: string,
  filter: RunListFilter,
  after: RunListKey | null,
  limit: number,
): { text: string; params: unknown[] } {
  const params: unknown[] = [userId];
  const where = ["r.user_id = $1"];
  const param = (value: unknown) => `$${params.push(value)}`;
  if ("top" in filter.scope) where.push("r.parent_id IS NULL");
  if ("parentId" in filter.scope) where.push(`r.parent_id = ${param(filter.scope.parentId)}::uuid`);
  if (filter.statuses) {
    where.push(
      filter.statuses.length === 1
        ? `r.status = ${param(filter.statuses[0])}`
        : `r.status = ANY(${param(filter.statuses)}::text[])`,
    );
  }
  if (filter.kinds) where.push(`r.kind = ANY(${param(filter.kinds)}::text[])`);
  if (filter.createdAfter) where.push(`r.queued_at >= ${param(filter.createdAfter)}::timestamptz`);
  if (filter.createdBefore) where.push(`r.queued_at < ${param(filter.createdBefore)}::timestamptz`);
  if (after) {
    // The key's time is exact to the microsecond (a JavaScript Date keeps milliseconds only).
    const at = `'epoch'::timestamptz + ${param(after.queuedAtUs)}::bigint * interval '1 microsecond'`;
    where.push(`(r.queued_at, r.id) < (${at}, ${param(after.id)}::uuid)`);
  }
  const text = `SELECT ${COLUMNS}
       FROM runs r LEFT JOIN runs p ON p.id = r.parent_id
      WHERE ${where.join(" AND ")}
      ORDER BY r.queued_at DESC, r.id DESC
      LIMIT ${param(limit)}`;
  return { text, params };
}

/**
 * One page of an account's runs (see `runListStatement`), run unnamed so the planner sees the
 * values (which status, which batch) and picks the index for them.
 */
export function listRunsOfAccount(
  ds: DataSource,
  userId: string,
  filter: RunListFilter,
  after: RunListKey | null,
  limit: number,
): Promise<RunSummaryRow[]> {
  const { text, params } = runListStatement(userId, filter, after, limit);
  return sql<RunSummaryRow>(ds, text, params, { unnamed: true });
}

/** The run id of one of the account's runs, by its job id; null when the account has none of that id. */
export async function findRunIdOfAccount(ds: DataSource, jobId: string, userId: string): Promise<Run["id"] | null> {
  const rows = await sql<{ id: string }>(ds, `SELECT id FROM runs WHERE job_id = $1 AND user_id = $2`, [jobId, userId]);
  return rows[0]?.id ?? null;
}
