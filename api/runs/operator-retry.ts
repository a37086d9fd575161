import type { Queue } from "bullmq";
import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { RUN_KIND_CATALOG, type RunKind } from "../../shared/runs/run-kind-catalog";
import { findRetryCandidate, reopenFailedRun, undoReopen, type RetryCandidate } from "../../shared/db/runs/run-retries";
import { RUN_STEPS_WITHIN_MS } from "../../shared/db/usage-store";
import { isUuid } from "../../shared/db/uuid";

/** How many jobs "Retry all" retries at once. */
const RETRY_ALL_AT_ONCE = 16;

const BATCH =
  "A batch is not retried: it recorded its items' outcomes when the last one ended; its client sends it again";
const LAUNCH =
  "A token launch is not retried: it signs with its creator's key, which was destroyed when its job ended; its creator launches again";

/**
 * Why runs of a kind are never retried by an operator, or null when a failed one may be: told
 * from its catalog entry, since what forbids a retry is what the kind is (a batch parent; a job
 * whose launch key is gone once it ended).
 */
function kindRefusal(kind: RunKind): string | null {
  const { childKind, launchKey } = RUN_KIND_CATALOG[kind];
  if (childKind) return BATCH;
  return launchKey ? LAUNCH : null;
}

/** The run's own time limit in milliseconds: its stored budget's, else the service's longest. */
function timeLimitMs(run: RetryCandidate): number {
  const budget = (run.request as { budget?: { timeout_seconds?: unknown } } | null)?.budget;
  const seconds = typeof budget?.timeout_seconds === "number" ? budget.timeout_seconds : config.runLimits.maxSeconds;
  return seconds * 1_000;
}

/**
 * Why an operator may not retry this run, or null when its retry would run it again honestly: only
 * a failed run is retried (a succeeded one would be billed again for nothing its client asked for;
 * a cancelled one was stopped by its client), and only one whose client can still be billed for
 * it: not a batch item (its batch's totals are written), not one without an API key (the service's
 * own, or its key deleted), not one whose key has been revoked since, and not one too old for the
 * usage report to count a new attempt.
 */
export function retryRefusal(run: RetryCandidate, now = Date.now()): string | null {
  if (run.status === "succeeded")
    return "The run succeeded: running it again would bill its client for nothing they asked for";
  if (run.status === "cancelled") return "The run was cancelled by its client";
  if (run.status !== "failed") return `The run has not ended (it is ${run.status})`;
  const byKind = kindRefusal(run.kind);
  if (byKind) return byKind;
  if (run.parent_id)
    return "A batch item is not retried: its batch recorded the item's outcome in its totals when it ended";
  if (run.api_key_id === null)
    return "The run has no API key: it is the service's own (a listing's content review), or its key was deleted";
  if (run.key_revoked) return "The API key that made the run has been revoked since";
  if (new Date(run.queued_at).getTime() + RUN_STEPS_WITHIN_MS < now + timeLimitMs(run))
    return "The run is too old to retry: a new attempt could end more than a day after its request, where its account's usage report no longer counts it";
  return null;
}

/** An operator's retry: done, or refused with a status for Bull Board (404 no such job, 409 not retried) and why. */
export type RetryAnswer = { retried: true } | { retried: false; status: 404 | 409; reason: string };

const refused = (status: 404 | 409, reason: string): RetryAnswer => ({ retried: false, status, reason });

/** Whether BullMQ refused to move a job (its scripts number their refusals: the job is gone, or in another state). */
/** The states of a job that is back in its queue, to be run. */
const BACK_IN_QUEUE: string[] = ["waiting", "prioritized", "delayed", "active"];

function jobMovedMeanwhile(err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === "number";
}

/**
 * Bull Board's Retry of one job, through the run's state machine: the failed run is re-opened in
 * Postgres first (a new attempt, the ended one kept in `retries`), then its job goes back to the
 * queue with its attempts counted afresh. The worker that takes it replays the steps already
 * stored and bills only the calls it makes. A job that cannot be moved back puts its run back as
 * it was. Redis or Postgres trouble is thrown.
 */
export async function retryRunJob(ds: DataSource, queue: Queue, jobId: string): Promise<RetryAnswer> {
  const job = await queue.getJob(jobId);
  if (!job?.id) return refused(404, `No job '${jobId}' in the ${queue.name} queue`);
  // A run's job id is the run's id.
  const run = isUuid(job.id) ? await findRetryCandidate(ds, job.id) : null;
  if (!run) return refused(409, "The job has no run to retry");
  // A failed run's job has failed; one that completed anyway (a retry that bypassed this, before
  // workers ended such jobs as their runs) is retried from there.
  const state = await job.getState();
  const finished = state === "failed" || state === "completed";
  const moveBack = (from: "failed" | "completed") =>
    job.retry(from, { resetAttemptsMade: true, resetAttemptsStarted: true });
  // A run re-opened whose job never went back (the process died between the two writes) waits
  // queued with nothing to run it: its job goes back now.
  if (run.status === "queued" && finished && run.retries.length > 0) {
    try {
      await moveBack(state);
    } catch (err) {
      if (jobMovedMeanwhile(err)) return refused(409, "The job changed meanwhile");
      throw err;
    }
    return { retried: true };
  }
  const refusal = retryRefusal(run);
  if (refusal) return refused(409, refusal);
  if (!finished) return refused(409, `The job is ${state}, not finished`);
  const reopened = await reopenFailedRun(ds, run.id);
  if (!reopened) return refused(409, "The run is no longer failed: another retry re-opened it");
  try {
    await moveBack(state);
  } catch (err) {
    // Moved back meanwhile by a concurrent retry (which found the run re-opened): the run is on its
    // way, and putting it back as failed would leave its job with nothing to run.
    if (jobMovedMeanwhile(err) && BACK_IN_QUEUE.includes(await job.getState())) return { retried: true };
    await undoReopen(ds, run.id);
    if (jobMovedMeanwhile(err)) return refused(409, "The job changed meanwhile");
    throw err;
  }
  const ended = reopened.retries.at(-1);
  await job
    .log(`retry ${reopened.retries.length} by an operator; the attempt before failed: ${ended?.error?.message ?? "?"}`)
    .catch(() => undefined);
  return { retried: true };
}

/**
 * Bull Board's "Retry all" of a queue's failed jobs: each one as `retryRunJob` retries it, so a job
 * whose run may not be retried is skipped.
 */
export async function retryFailedJobs(ds: DataSource, queue: Queue): Promise<{ retried: number; skipped: number }> {
  const ids = await queue.getRanges(["failed"], 0, -1);
  let retried = 0;
  for (let i = 0; i < ids.length; i += RETRY_ALL_AT_ONCE) {
    const answers = await Promise.all(ids.slice(i, i + RETRY_ALL_AT_ONCE).map((id) => retryRunJob(ds, queue, id)));
    retried += answers.filter((a) => a.retried).length;
  }
  return { retried, skipped: ids.length - retried };
}
