import type { Job } from "bullmq";
import type { RetryModel } from "../../shared/db/entities/run.entity";
import { findRetryCandidate, type RetryCandidate } from "../../shared/db/runs/run-retries";
import { isUuid } from "../../shared/db/uuid";
import { AppError, BadRequestError, NotFoundError } from "../../shared/errors";
import { fairPriorities, fairWeight } from "../../shared/queues/fair-priority";
import { describeJob } from "../../shared/queues/job-description";
import { enqueue } from "../../shared/queues/queues";
import { failedAgentNames, overridableAgents } from "../../shared/runs/retry-models";
import { RUN_KIND_CATALOG, jobOf, takesOwnSteps, type SteppedKind } from "../../shared/runs/run-kind-catalog";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { ApiDeps } from "../deps";
import { acceptedReply, retryHint, type Reply } from "../reply";
import { acceptWebhookUrls } from "../spine/webhook-url";
import { assertModelServable } from "./run-models";
import { moveBack, reopenAndRequeue, retryRefusal } from "./run-retry";

/** `POST /v1/jobs/{job_id}/retry`'s body, validated: both fields optional. */
export interface RetryJobBody {
  /** Another model for the agents whose last turn failed. */
  model_name?: string;
  webhook_url?: string | null;
}

/** A 409 for a run that is not retried; a retry cannot change it (`x-should-retry: false`). */
const notRetried = (jobId: string, code: string, reason: string, status?: string) =>
  new AppError(409, code, reason, { job_id: jobId, ...(status ? { status } : {}) }, retryHint(false));

/** The model the retry gives the agents that failed, checked as the run endpoints check a model. */
function modelOverride(run: RetryCandidate, model: string | undefined): RetryModel | null {
  if (model === undefined) return null;
  if (!overridableAgents(run))
    throw new BadRequestError(
      `model_name: a ${run.kind} run names no agents' models; retry it without one`,
      {},
      "MODEL_OVERRIDE_UNSUPPORTED",
    );
  assertModelServable(model, "model_name");
  return { model_name: model, agents: failedAgentNames(run) };
}

/**
 * Puts the run's work back in its queue as a new run's is: at its account's turn in fair dispatch
 * (`fair-priority`), then its failed job moved back, or a job added again when the queue no longer
 * keeps the old one.
 */
function requeue(
  deps: ApiDeps,
  run: RetryCandidate & { kind: SteppedKind },
  job: { job: Job; state: "failed" | "completed" } | null,
  owner: KeyOwner,
) {
  return async () => {
    const queue = RUN_KIND_CATALOG[run.kind].queue;
    const turn = {
      accountId: owner.userId,
      weight: fairWeight(owner.tier),
      band: run.service_tier === "flex" ? "flex" : "standard",
    } as const;
    const [priority] = await fairPriorities(deps.queues.connection, queue, turn);
    if (job) {
      await job.job.changePriority({ priority }); // a finished job keeps it until it goes back
      await moveBack(job.job, job.state);
      return;
    }
    const described = describeJob({
      kind: run.kind,
      request: run.request,
      owner: { ...owner, apiKeyId: run.api_key_id },
    });
    await enqueue(deps.queues.of(owner.userId), jobOf(run.kind), { ...described, runId: run.id }, run.id, { priority });
  };
}

/**
 * The run's job when its queue still keeps it, finished (null when the queue no longer does). A
 * failed run whose job has not ended yet (its worker is still letting go of it) is a 409: moved
 * back now, the job would end as failed after all, leaving the re-opened run with nothing to run it.
 */
async function finishedJob(deps: ApiDeps, run: RetryCandidate & { kind: SteppedKind }, owner: KeyOwner) {
  const job = await deps.queues.of(owner.userId)[RUN_KIND_CATALOG[run.kind].queue].getJob(run.id);
  const state = job ? await job.getState() : "unknown";
  if (!job || state === "unknown") return null;
  if (state === "failed" || state === "completed") return { job, state } as const;
  throw notRetried(run.id, "JOB_NOT_FINISHED", `The run's job is ${state}, not finished yet: retry it in a moment`);
}

/**
 * `POST /v1/jobs/{job_id}/retry`: starts a failed run of the caller's account again, from its
 * last good step: the run is re-opened (a new attempt; how the last one ended is kept) and queued
 * like a new run, and its worker replays every step earlier attempts finished, billing only the
 * calls it makes. `model_name` gives the agents whose last turn failed another model; `webhook_url`
 * where its end is reported. Answers 202 as `Prefer: respond-async` does; 404 for no run of the
 * account, 409 for one that is not retried (see `retryRefusal`) or that a concurrent retry re-opened.
 */
export async function retryJob(deps: ApiDeps, jobId: string, owner: KeyOwner, body: RetryJobBody): Promise<Reply> {
  const run = isUuid(jobId) ? await findRetryCandidate(deps.ds, jobId, owner.userId) : null;
  if (!run) throw new NotFoundError(`No job '${jobId}' for this API key's account`);
  const refusal = retryRefusal(run);
  if (refusal)
    throw notRetried(jobId, refusal.code, refusal.reason, run.status === "succeeded" ? "success" : run.status);
  if (!takesOwnSteps(run.kind)) throw notRetried(jobId, "JOB_NOT_RETRYABLE", `A ${run.kind} run is not retried`);
  const model = modelOverride(run, body.model_name);
  const webhookUrl = body.webhook_url || null;
  await acceptWebhookUrls(deps.ds, owner.userId, [{ url: webhookUrl, field: "webhook_url" }]);
  const stepped = run as RetryCandidate & { kind: SteppedKind };
  const job = await finishedJob(deps, stepped, owner);
  const asked = { by: "client" as const, model, webhookUrl };
  const done = await reopenAndRequeue(deps.ds, job?.job ?? null, run.id, asked, requeue(deps, stepped, job, owner));
  if ("refused" in done) throw notRetried(jobId, "JOB_NOT_FINISHED", done.refused);
  const accepted = acceptedReply(run.id);
  return { ...accepted, body: { ...(accepted.body as object), attempt: done.run.retries.length + 1 } };
}
