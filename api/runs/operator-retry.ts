import type { Queue } from "bullmq";
import type { DataSource } from "typeorm";
import { findRetryCandidate } from "../../shared/db/runs/run-retries";
import { isUuid } from "../../shared/db/uuid";
import { jobMovedMeanwhile, moveBack, reopenAndRequeue, retryRefusal } from "./run-retry";

/** How many jobs "Retry all" retries at once. */
const RETRY_ALL_AT_ONCE = 16;

/** An operator's retry: done, or refused with a status for Bull Board (404 no such job, 409 not retried) and why. */
export type RetryAnswer = { retried: true } | { retried: false; status: 404 | 409; reason: string };

const refused = (status: 404 | 409, reason: string): RetryAnswer => ({ retried: false, status, reason });

/**
 * Bull Board's Retry of one job, through the run's state machine and the retry a client's
 * `POST /v1/jobs/{job_id}/retry` makes (`run-retry.ts`): the failed run is re-opened in Postgres
 * first, then its job goes back to the queue with its attempts counted afresh (at the priority it
 * had). Redis or Postgres trouble is thrown.
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
  // A run re-opened whose job never went back (the process died between the two writes) waits
  // queued with nothing to run it: its job goes back now.
  if (run.status === "queued" && finished && run.retries.length > 0) {
    try {
      await moveBack(job, state);
    } catch (err) {
      if (jobMovedMeanwhile(err)) return refused(409, "The job changed meanwhile");
      throw err;
    }
    return { retried: true };
  }
  const refusal = retryRefusal(run);
  if (refusal) return refused(409, refusal.reason);
  if (!finished) return refused(409, `The job is ${state}, not finished`);
  const done = await reopenAndRequeue(ds, job, run.id, { by: "operator" }, () => moveBack(job, state));
  return "refused" in done ? refused(409, done.refused) : { retried: true };
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
