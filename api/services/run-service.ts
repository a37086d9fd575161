import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { Run, RunKind } from "../../shared/db/entities/run.entity";
import { failRun, findRun, insertRun, isTerminal } from "../../shared/db/run-store";
import { AppError, ServiceUnavailableError } from "../../shared/errors";
import { enqueue } from "../../shared/queues/queues";
import type { JobName } from "../../shared/queues/registry";
import type { ApiDeps } from "../deps";

/** BullMQ priority of flex runs: any standard job is taken first. */
const FLEX_PRIORITY = 10;

export interface SubmitRun {
  kind: RunKind;
  job: JobName;
  request: unknown;
  /** Who the run is for; runs the service makes on its own behalf have no key. */
  owner: Pick<KeyOwner, "userId"> & { apiKeyId: string | null };
  /** `flex` runs wait behind standard ones in the queue. */
  serviceTier?: "standard" | "flex";
}

/**
 * Enqueues a stored run's job (closing the row if the queue refuses it, so it is not left queued
 * forever) and waits up to `waitMs` for the row to reach a final state. Listens before enqueueing,
 * so a fast job's completion cannot slip past. Null when nobody waits or the wait ran out.
 */
export async function enqueueAndAwait(deps: ApiDeps, runId: string, enqueueJob: () => Promise<void>, waitMs: number | null): Promise<Run | null> {
  const watch = waitMs === null ? null : deps.waiter.watch(runId);
  try {
    try {
      await enqueueJob();
    } catch {
      await failRun(deps.ds, runId, { message: "The run could not be queued", code: "QUEUE_UNAVAILABLE" }).catch(() => undefined);
      throw new ServiceUnavailableError("The job queue is unavailable; try again shortly");
    }
    if (!watch || waitMs === null) return null;
    const finished = await watch.wait(async (announced) => {
      const row = announced && isTerminal(announced.status) ? announced : await findRun(deps.ds, runId);
      return row && isTerminal(row.status) ? row : undefined;
    }, waitMs);
    return finished ?? null;
  } finally {
    watch?.close();
  }
}

/**
 * Stores a queued run, enqueues its job after the row is committed, and — unless the caller does
 * not wait — waits for it to end, up to `waitMs`. Returns the run id and the finished row (null
 * when the wait ran out first or nobody waited).
 */
export async function runAndWait(deps: ApiDeps, run: SubmitRun, waitMs: number | null): Promise<{ runId: string; run: Run | null }> {
  const runId = randomUUID();
  await insertRun(deps.ds, { id: runId, kind: run.kind, apiKeyId: run.owner.apiKeyId, userId: run.owner.userId, request: run.request, serviceTier: run.serviceTier });
  const options = run.serviceTier === "flex" ? { priority: FLEX_PRIORITY } : {};
  const finished = await enqueueAndAwait(deps, runId, () => enqueue(deps.queues, run.job, { runId }, runId, options), waitMs);
  return { runId, run: finished };
}

/** Throws the contract's error for a run that did not succeed (or is still going). */
export function assertSucceeded(run: Run | null, runId: string): asserts run is Run {
  if (!run) {
    throw new AppError(504, "RUN_TIMEOUT", "The run is still in progress; fetch its result later with GET /v1/jobs/{job_id}", {
      job_id: runId,
    });
  }
  if (run.status === "cancelled") throw new AppError(409, "RUN_CANCELLED", "The run was cancelled", { job_id: run.job_id });
  if (run.status !== "succeeded") {
    const error = (run.error ?? {}) as { message?: string; agent?: string };
    throw new AppError(500, "RUN_FAILED", error.message ?? "The run failed", { job_id: run.job_id, ...(error.agent ? { agent: error.agent } : {}) });
  }
}
