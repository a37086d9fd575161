import Router from "@koa/router";
import { loadChildren } from "../../../../shared/db/run-batch-store";
import { cancelRun } from "../../../../shared/db/run-cancel";
import { findRunForUser } from "../../../../shared/db/run-store";
import { AppError, NotFoundError } from "../../../../shared/errors";
import { publishCancel } from "../../../../shared/queues/cancellation";
import type { ApiDeps } from "../../../deps";
import { KINDS_WITH_CHILDREN, presentJob } from "../../../presenters/job.presenter";

/** `GET /v1/jobs/{job_id}` reads any run of the caller's account; `DELETE` cancels one still going. */
export function jobsRouter(deps: ApiDeps): Router {
  const router = new Router();
  const notFound = (jobId: string) => new NotFoundError(`No job '${jobId}' for this API key's account`);

  router.get("/v1/jobs/:jobId", async (ctx) => {
    const run = await findRunForUser(deps.ds, ctx.params.jobId, ctx.state.auth.userId);
    if (!run) throw notFound(ctx.params.jobId);
    const children = KINDS_WITH_CHILDREN.has(run.kind) && run.status === "succeeded" ? await loadChildren(deps.ds, run.id) : [];
    ctx.body = presentJob(run, children);
  });

  router.delete("/v1/jobs/:jobId", async (ctx) => {
    const result = await cancelRun(deps.ds, ctx.params.jobId, ctx.state.auth.userId);
    if (!result) throw notFound(ctx.params.jobId);
    if (!result.changed) {
      throw new AppError(409, "JOB_FINISHED", `The job has already ended (${result.status === "succeeded" ? "success" : result.status})`, {
        job_id: ctx.params.jobId,
      });
    }
    // The row says cancelled already; the broadcast makes the worker holding it stop now.
    await publishCancel(deps.redis, result.id).catch(() => undefined);
    ctx.body = { job_id: ctx.params.jobId, status: "cancelled" };
  });
  return router;
}
