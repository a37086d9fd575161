import type { DataSource } from "typeorm";
import type { RunKind, RunStatus } from "../../shared/db/entities/run.entity";
import {
  findRunIdOfAccount,
  listRunsOfAccount,
  type RunListFilter,
  type RunListKey,
  type RunSummaryRow,
} from "../../shared/db/runs/run-lists";
import { isUuid } from "../../shared/db/uuid";
import { NotFoundError } from "../../shared/errors";
import { decodeCursor, encodeCursor } from "./page-cursor";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";

/** `GET /v1/jobs`'s query, validated. */
export interface JobListQuery {
  status?: string;
  kind?: string;
  created_after?: Date;
  created_before?: Date;
  include_items: boolean;
  parent?: string;
  limit: number;
  cursor?: string;
}

/** One run as `GET /v1/jobs` lists it. */
interface JobSummary {
  job_id: string;
  kind: RunKind;
  status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  cost: number | null;
  model: string | null;
  swarm_type: string | null;
  parent_id: string | null;
  item_index: number | null;
}

const STORED_STATUS = Object.fromEntries(Object.entries(PUBLIC_STATUS).map(([stored, shown]) => [shown, stored]));

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function presentSummary(row: RunSummaryRow): JobSummary {
  return {
    job_id: row.job_id,
    kind: row.kind,
    status: PUBLIC_STATUS[row.status],
    created_at: iso(row.queued_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    cost: row.billed_cost === null ? null : Number(row.billed_cost),
    model: row.model,
    swarm_type: row.swarm_type,
    parent_id: row.parent_job_id,
    item_index: row.item_index,
  };
}

const isListKey = (value: unknown): value is RunListKey => {
  const key = value as RunListKey;
  return (
    typeof key === "object" &&
    key !== null &&
    typeof key.queuedAtUs === "string" &&
    /^-?\d{1,17}$/.test(key.queuedAtUs) &&
    typeof key.id === "string" &&
    isUuid(key.id)
  );
};

/** What a cursor is bound to: the account and every filter of the query it pages (not the limit). */
function bindingOf(userId: string, query: JobListQuery): string {
  const { limit: _limit, cursor: _cursor, ...filters } = query;
  return JSON.stringify([
    "jobs",
    userId,
    filters.status,
    filters.kind,
    iso(filters.created_after ?? null),
    iso(filters.created_before ?? null),
    filters.include_items,
    filters.parent,
  ]);
}

/** The filter a validated query asks for; 404 when `parent` names no run of the account. */
async function filterOf(ds: DataSource, userId: string, query: JobListQuery): Promise<RunListFilter> {
  let scope: RunListFilter["scope"] = query.include_items ? { all: true } : { top: true };
  if (query.parent !== undefined) {
    const parentId = isUuid(query.parent) ? await findRunIdOfAccount(ds, query.parent, userId) : null;
    if (!parentId) throw new NotFoundError(`No job '${query.parent}' for this API key's account`);
    scope = { parentId };
  }
  return {
    scope,
    statuses: query.status?.split(",").map((shown) => STORED_STATUS[shown] as RunStatus),
    kinds: query.kind?.split(",") as RunKind[] | undefined,
    createdAfter: query.created_after,
    createdBefore: query.created_before,
  };
}

/**
 * `GET /v1/jobs`: a page of the account's runs (every key's), newest first, and the cursor of the
 * next page. The cursor is the last listed run's `(queued_at, id)`, signed and bound to the
 * account and the filters, so runs created while a client pages never shift its pages.
 */
export async function listJobs(
  ds: DataSource,
  userId: string,
  query: JobListQuery,
): Promise<{ jobs: JobSummary[]; next_cursor: string | null }> {
  const binding = bindingOf(userId, query);
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, binding, isListKey);
  const filter = await filterOf(ds, userId, query);
  // One more row than asked tells whether there is a next page without a second query.
  const rows = await listRunsOfAccount(ds, userId, filter, after, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const more = rows.length > query.limit && last;
  return {
    jobs: page.map(presentSummary),
    next_cursor: more ? encodeCursor({ queuedAtUs: last.queued_at_us, id: last.id }, binding) : null,
  };
}
