import type { Job } from "bullmq";
import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { RUN_KIND_CATALOG, type RunKind } from "../../shared/runs/run-kind-catalog";
import { reopenFailedRun, undoReopen, type RetryAsked, type RetryCandidate } from "../../shared/db/runs/run-retries";
import type { Run } from "../../shared/db/entities/run.entity";
import { RUN_STEPS_WITHIN_MS } from "../../shared/db/usage-store";

/*
 * The one retry of a failed run, which a client (`POST /v1/jobs/{job_id}/retry`) and an operator
 * (Bull Board's Retry) share: which runs may be retried, and re-opening one whose job then goes
 * back to its queue. The worker that takes it replays the steps earlier attempts finished and
 * bills only the calls it makes.
 */

/** Why a run is not retried: the 409 code a client is answered with, and the reason. */
export interface RetryRefusal {
  /** `JOB_NOT_FINISHED`: queued or running; `JOB_NOT_FAILED`: it succeeded or was cancelled; else `JOB_NOT_RETRYABLE`. */
  code: "JOB_NOT_FINISHED" | "JOB_NOT_FAILED" | "JOB_NOT_RETRYABLE";
  reason: string;
}

const BATCH =
  "A batch is not retried: it recorded its items' outcomes when the last one ended; its client sends it again";
const LAUNCH =
  "A token launch is not retried: it signs with its creator's key, which was destroyed when its job ended; its creator launches again";

/**
 * Why runs of a kind are never retried, or null when a failed one may be: told from its catalog
 * entry, since what forbids a retry is what the kind is (a batch parent; a job whose launch key is
 * gone once it ended).
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

const notRetryable = (reason: string): RetryRefusal => ({ code: "JOB_NOT_RETRYABLE", reason });

/**
 * Why this run may not be retried, or null when its retry would run it again honestly: only a
 * failed run is retried, whatever failed it (a provider, an agent, its time or spend budget: the
 * new attempt has a deadline of its own, and its reused steps cost nothing new). A succeeded one
 * would be billed again for nothing its client asked for; a cancelled one was stopped by its
 * client on purpose. And only one whose client can still be billed for it: not a batch item (its
 * batch's totals are written), not one without an API key (the service's own, or its key
 * deleted), not one whose key has been revoked since, and not one too old for the usage report to
 * count a new attempt.
 */
export function retryRefusal(run: RetryCandidate, now = Date.now()): RetryRefusal | null {
  if (run.status === "succeeded")
    return {
      code: "JOB_NOT_FAILED",
      reason: "The run succeeded: running it again would bill its client for nothing they asked for",
    };
  if (run.status === "cancelled") return { code: "JOB_NOT_FAILED", reason: "The run was cancelled by its client" };
  if (run.status !== "failed")
    return { code: "JOB_NOT_FINISHED", reason: `The run has not ended (it is ${run.status})` };
  const byKind = kindRefusal(run.kind);
  if (byKind) return notRetryable(byKind);
  if (run.parent_id)
    return notRetryable(
      "A batch item is not retried: its batch recorded the item's outcome in its totals when it ended",
    );
  if (run.api_key_id === null)
    return notRetryable(
      "The run has no API key: it is the service's own (a listing's content review), or its key was deleted",
    );
  if (run.key_revoked) return notRetryable("The API key that made the run has been revoked since");
  if (new Date(run.queued_at).getTime() + RUN_STEPS_WITHIN_MS < now + timeLimitMs(run))
    return notRetryable(
      "The run is too old to retry: a new attempt could end more than a day after its request, where its account's usage report no longer counts it",
    );
  return null;
}

/** A retry: done (with the re-opened row), or refused (409: the run or its job changed meanwhile). */
export type Reopened = { run: Run } | { refused: string };

/** The states of a job that is back in its queue, to be run. */
const BACK_IN_QUEUE: string[] = ["waiting", "prioritized", "delayed", "active"];

/** Whether BullMQ refused to move a job (its scripts number their refusals: the job is gone, or in another state). */
export function jobMovedMeanwhile(err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === "number";
}

/** Moves a finished job back to its queue, its attempts counted afresh. */
export function moveBack(job: Job, from: "failed" | "completed"): Promise<void> {
  return job.retry(from, { resetAttemptsMade: true, resetAttemptsStarted: true });
}

/**
 * Re-opens a failed run (a new attempt, the ended one kept in `retries`), then puts its work back
 * in the queue with `requeue` (the job moved back, or enqueued again when it is gone). Only one of
 * concurrent retries re-opens the run; the others are refused. A job that cannot be put back puts
 * its run back as it was. Redis or Postgres trouble is thrown.
 */
export async function reopenAndRequeue(
  ds: DataSource,
  job: Job | null,
  runId: string,
  asked: RetryAsked,
  requeue: () => Promise<void>,
): Promise<Reopened> {
  const reopened = await reopenFailedRun(ds, runId, asked);
  if (!reopened) return { refused: "The run is no longer failed: another retry re-opened it" };
  try {
    await requeue();
  } catch (err) {
    // Moved back meanwhile by a concurrent retry (which found the run re-opened): the run is on its
    // way, and putting it back as failed would leave its job with nothing to run.
    if (job && jobMovedMeanwhile(err) && BACK_IN_QUEUE.includes(await job.getState())) return { run: reopened };
    await undoReopen(ds, runId);
    if (jobMovedMeanwhile(err)) return { refused: "The job changed meanwhile" };
    throw err;
  }
  const ended = reopened.retries.at(-1);
  await job
    ?.log(
      `retry ${reopened.retries.length} by ${asked.by === "client" ? "its client" : "an operator"}; the attempt before failed: ${ended?.error?.message ?? "?"}`,
    )
    .catch(() => undefined);
  return { run: reopened };
}
