import { cancelRun } from "../../shared/db/runs/run-results";
import { findRunForUser } from "../../shared/db/runs/run-rows";
import { isUuid } from "../../shared/db/uuid";
import { AppError, NotFoundError } from "../../shared/errors";
import { publishCancel } from "../../shared/queues/cancellation";
import type { ApiDeps } from "../deps";
import { presentStoredJob } from "../../shared/runs/job-read";
import { presentWebhookState } from "./webhook-state";

const noJob = (jobId: string) => new NotFoundError(`No job '${jobId}' for this API key's account`);

/**
 * `GET /v1/jobs/{job_id}`: any run of the user's account, as `presentJob` shows it, with the
 * `progress` of one still queued or running; 404 when there is none.
 */
export async function readJob(
  deps: Pick<ApiDeps, "ds">,
  jobId: string,
  userId: string,
): Promise<Record<string, unknown>> {
  // Job ids are UUIDs; anything else names no job (and could hold text Postgres refuses, like NUL).
  const run = isUuid(jobId) ? await findRunForUser(deps.ds, jobId, userId) : null;
  if (!run) throw noJob(jobId);
  const [job, webhook] = await Promise.all([presentStoredJob(deps.ds, run), presentWebhookState(deps.ds, run)]);
  return webhook ? { ...job, webhook } : job;
}

/**
 * `DELETE /v1/jobs/{job_id}`: cancels a run of the user's account that has not ended (its batch
 * items with it) and stops the worker holding it; 404 when there is none, 409 when it has ended.
 */
export async function cancelJob(
  deps: Pick<ApiDeps, "ds" | "redis">,
  jobId: string,
  userId: string,
): Promise<{ job_id: string; status: "cancelled" }> {
  const result = isUuid(jobId) ? await cancelRun(deps.ds, jobId, userId) : null;
  if (!result) throw noJob(jobId);
  if (!result.changed) {
    const status = result.status === "succeeded" ? "success" : result.status;
    throw new AppError(409, "JOB_FINISHED", `The job has already ended (${status})`, { job_id: jobId });
  }
  // The rows say cancelled already; the broadcast makes the workers holding them (a batch's items too) stop now.
  await Promise.all(result.cancelled.map((id) => publishCancel(deps.redis, id).catch(() => undefined)));
  return { job_id: jobId, status: "cancelled" };
}
