import Joi from "joi";
import type { DataSource } from "typeorm";
import { ledgerSumsOfRuns, type RunLedgerSums } from "../../shared/db/usage-store";
import { findRunForUser } from "../../shared/db/runs/run-rows";
import { isUuid } from "../../shared/db/uuid";
import { RUN_KINDS, hasChildren } from "../../shared/runs/run-kind-catalog";
import { presentStoredJob } from "../../shared/runs/job-read";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { listJobs } from "../runs/job-list";
import { listJobSteps } from "../runs/job-steps";
import { formatAmount, formatDollars, formatTokens, pageDate, type PageDate } from "./page-format";

/** Where the runs page lives; one run's page is under it. */
export const RUNS_PATH = "/platform/runs";

/** Runs a page of the list shows: `GET /v1/jobs`'s default page. */
const RUNS_PER_PAGE = 20;

/** The steps a run's page shows: `GET /v1/jobs/{job_id}/steps`'s largest page. */
const STEPS_SHOWN = 500;

/** The items a batch's page lists: `GET /v1/jobs`'s largest page. */
const ITEMS_SHOWN = 100;

/** The run states the runs page filters by (one, or none). */
export const RUN_STATUSES = Object.values(PUBLIC_STATUS);

/** The runs page's query: each filter one allow-listed value, the cursor opaque; anything else is refused. */
export const runsPageQuerySchema = Joi.object({
  status: Joi.string().valid(...RUN_STATUSES, ""),
  kind: Joi.string().valid(...RUN_KINDS, ""),
  cursor: Joi.string().max(1024),
});

/** A validated query of the runs page. */
export interface RunsPageQuery {
  status?: string;
  kind?: string;
  cursor?: string;
}

/** What the list and a run's page say of a run's calls: tokens in and out, the models used. */
interface CallsShown {
  tokens: string;
  models: string[];
}

/** One row of the runs page. */
interface RunRow extends CallsShown {
  jobId: string;
  kind: string;
  status: string;
  cost: string | null;
  queued: PageDate;
  finished: PageDate | null;
}

const dollars = (cost: number | null) => (cost === null ? null : formatDollars(cost));

function callsShown(sums: RunLedgerSums | undefined, fallbackModel: string | null): CallsShown {
  const models = sums?.models.length ? sums.models : fallbackModel ? [fallbackModel] : [];
  return { tokens: formatTokens(sums?.input_tokens ?? 0, sums?.output_tokens ?? 0), models };
}

/**
 * A page of the viewer's runs (every key's), newest first, as `GET /v1/jobs` lists them (the same
 * use case, cursor and index), with each run's tokens and models from the ledger its steps are.
 */
export async function runsPageOf(ds: DataSource, userId: string, query: RunsPageQuery) {
  const listed = await listJobs(ds, userId, {
    status: query.status || undefined,
    kind: query.kind || undefined,
    include_items: false,
    limit: RUNS_PER_PAGE,
    cursor: query.cursor,
  });
  const jobIds = listed.jobs.map((job) => job.job_id);
  const sums = new Map((await ledgerSumsOfRuns(ds, userId, jobIds)).map((s) => [s.job_id, s]));
  const runs: RunRow[] = listed.jobs.map((job) => ({
    jobId: job.job_id,
    kind: job.kind,
    status: job.status,
    cost: dollars(job.cost),
    queued: pageDate(job.created_at),
    finished: job.finished_at ? pageDate(job.finished_at) : null,
    ...callsShown(sums.get(job.job_id), job.model ?? job.swarm_type),
  }));
  return { runs, nextCursor: listed.next_cursor };
}

/** Whether a run in this public state may still change: its page refreshes itself until it ends. */
const isGoing = (status: string) => status === "queued" || status === "running" || status === "awaiting_approval";

/** A failed or cancelled run's error, as its job read words it. */
function presentError(job: Record<string, unknown>) {
  return { code: String(job.code ?? ""), detail: String(job.detail), agent: job.agent ? String(job.agent) : null };
}

/**
 * One of the viewer's runs as its page shows it, or null for none of theirs (another account's,
 * unknown, malformed): the job read `GET /v1/jobs/{job_id}` answers (the same presenter, so the
 * same redaction), its bill line by line as `GET /v1/jobs/{job_id}/steps` lists it, and a batch's items.
 */
export async function runPageOf(ds: DataSource, userId: string, jobId: string) {
  const run = isUuid(jobId) ? await findRunForUser(ds, jobId, userId) : null;
  if (!run) return null;
  const [job, steps, [sums], items] = await Promise.all([
    presentStoredJob(ds, run),
    listJobSteps(ds, jobId, userId, { limit: STEPS_SHOWN }),
    ledgerSumsOfRuns(ds, userId, [jobId]),
    hasChildren(run.kind)
      ? listJobs(ds, userId, { parent: jobId, include_items: false, limit: ITEMS_SHOWN })
      : { jobs: [], next_cursor: null },
  ]);
  const status = String(job.status);
  const failed = run.status === "failed" || run.status === "cancelled";
  return {
    jobId: run.job_id,
    kind: run.kind,
    status,
    going: isGoing(status),
    queued: pageDate(run.queued_at),
    finished: run.finished_at ? pageDate(run.finished_at) : null,
    cost: dollars(steps.total_cost),
    ...callsShown(sums, null),
    error: failed && job.detail ? presentError(job) : null,
    steps: steps.steps.map((step) => ({
      jobId: step.job_id,
      type: step.type,
      agent: step.agent ?? "",
      model: step.model ?? step.charge ?? "",
      tokens: formatTokens(step.input_tokens, step.output_tokens),
      cost: formatDollars(step.cost),
      duration: `${formatAmount(step.latency_ms / 1000)} s`,
      status: step.status,
    })),
    moreSteps: steps.total_steps - steps.steps.length,
    moreItems: items.next_cursor !== null,
    items: items.jobs.map((item) => ({
      jobId: item.job_id,
      index: item.item_index,
      status: item.status,
      cost: dollars(item.cost),
    })),
    answer: isGoing(status) ? null : JSON.stringify(job, null, 2),
  };
}
