import Router from "@koa/router";
import { findRunForUser } from "../../../../shared/db/run-store";
import { NotFoundError } from "../../../../shared/errors";
import type { ApiDeps } from "../../../deps";
import { presentJob } from "../../../presenters/job.presenter";

/** `GET /v1/jobs/{job_id}`: any run of the caller's user. */
export function jobsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get("/v1/jobs/:jobId", async (ctx) => {
    const run = await findRunForUser(deps.ds, ctx.params.jobId, ctx.state.auth.userId);
    if (!run) throw new NotFoundError(`No job '${ctx.params.jobId}' for this API key's account`);
    ctx.body = presentJob(run);
  });
  return router;
}
