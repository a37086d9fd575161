import Router from "@koa/router";
import Joi from "joi";
import { loadChildren } from "../../../../shared/db/run-batch-store";
import { cancelRun } from "../../../../shared/db/run-cancel";
import { findRunForUser } from "../../../../shared/db/run-store";
import { AppError, NotFoundError } from "../../../../shared/errors";
import { publishCancel } from "../../../../shared/queues/cancellation";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { documentRoutes, type Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { KINDS_WITH_CHILDREN, presentJob } from "../../../runs/presenters/job.presenter";
import { cancelledJobSchema, jobResponseSchema } from "../../../schemas/job-response.schema";
import { isUuid } from "../../../../shared/db/uuid";

const jobParams = Joi.object({
  job_id: Joi.string().description("The `job_id` (or a batch's `batch_id`) a run was answered with"),
});
const noJob = apiError("No such job for this API key's account (`NOT_FOUND`)");

const jobsOperations: Operation[] = [
  {
    method: "get",
    path: "/v1/jobs/{job_id}",
    summary: "Read a run",
    description:
      "A succeeded run's stored response (as its endpoint answered it, with `status: success`); otherwise its state: `queued`, `running`, `failed` (with `detail` and `code`) or `cancelled`.",
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    responses: { 200: { description: "The run's response or state", body: jobResponseSchema }, 404: noJob },
  },
  {
    method: "delete",
    path: "/v1/jobs/{job_id}",
    summary: "Cancel a run",
    description: "Stops a queued or running run; the worker holding it stops at once.",
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    responses: {
      200: { description: "The run is cancelled", body: cancelledJobSchema },
      404: noJob,
      409: apiError("The run has already ended (`JOB_FINISHED`, with `job_id`)"),
    },
  },
];

/** `GET /v1/jobs/{job_id}` reads any run of the caller's account; `DELETE` cancels one still going. */
export function jobsRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  const notFound = (jobId: string) => new NotFoundError(`No job '${jobId}' for this API key's account`);

  router.get("/v1/jobs/:job_id", async (ctx) => {
    // Job ids are UUIDs; anything else names no job (and could hold text Postgres refuses, like NUL).
    const run = isUuid(ctx.params.job_id)
      ? await findRunForUser(deps.ds, ctx.params.job_id, ctx.state.auth.userId)
      : null;
    if (!run) throw notFound(ctx.params.job_id);
    const children =
      KINDS_WITH_CHILDREN.has(run.kind) && run.status === "succeeded" ? await loadChildren(deps.ds, run.id) : [];
    ctx.body = presentJob(run, children);
  });

  router.delete("/v1/jobs/:job_id", async (ctx) => {
    const result = isUuid(ctx.params.job_id)
      ? await cancelRun(deps.ds, ctx.params.job_id, ctx.state.auth.userId)
      : null;
    if (!result) throw notFound(ctx.params.job_id);
    if (!result.changed) {
      throw new AppError(
        409,
        "JOB_FINISHED",
        `The job has already ended (${result.status === "succeeded" ? "success" : result.status})`,
        {
          job_id: ctx.params.job_id,
        },
      );
    }
    // The row says cancelled already; the broadcast makes the worker holding it stop now.
    await publishCancel(deps.redis, result.id).catch(() => undefined);
    ctx.body = { job_id: ctx.params.job_id, status: "cancelled" };
  });
  return documentRoutes(router, ...jobsOperations);
}
