import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { Run, RunKind } from "../../shared/db/entities/run.entity";
import { failRun, findRun, insertRun, isTerminal } from "../../shared/db/run-store";
import { AppError, ServiceUnavailableError } from "../../shared/errors";
import { enqueue } from "../../shared/queues/queues";
import type { JobName } from "../../shared/queues/registry";
import type { ApiDeps } from "../deps";

export interface SubmitRun {
  kind: RunKind;
  job: JobName;
  request: unknown;
  owner: KeyOwner;
}

/** Stores a queued run, then enqueues its job (after the row is committed). Returns the run id. */
export async function submitRun(deps: ApiDeps, run: SubmitRun): Promise<string> {
  const id = randomUUID();
  await insertRun(deps.ds, { id, kind: run.kind, apiKeyId: run.owner.apiKeyId, userId: run.owner.userId, request: run.request });
  try {
    await enqueue(deps.queues, run.job, { runId: id }, id);
  } catch {
    // The row exists but no worker will ever see it: close it so it is not left queued forever.
    await failRun(deps.ds, id, { message: "The run could not be queued", code: "QUEUE_UNAVAILABLE" }).catch(() => undefined);
    throw new ServiceUnavailableError("The job queue is unavailable; try again shortly");
  }
  return id;
}

/** Waits for a run to end, up to `timeoutMs`; the run row is the answer, events only wake us. */
export async function awaitRun(deps: ApiDeps, runId: string, timeoutMs: number): Promise<Run | null> {
  const run = await deps.waiter.waitFor(
    runId,
    async () => {
      const row = await findRun(deps.ds, runId);
      return row && isTerminal(row.status) ? row : undefined;
    },
    timeoutMs,
  );
  return run ?? null;
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
