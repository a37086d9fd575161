import Router from "@koa/router";
import Joi from "joi";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { documentRoutes, type Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { validQuery } from "../../../http/validate-query";
import { listJobs, type JobListQuery } from "../../../runs/job-list";
import { listJobSteps, type JobStepsQuery } from "../../../runs/job-steps";
import { cancelJob, readJob } from "../../../runs/jobs";
import { decideJob } from "../../../runs/approvals";
import { validateBody } from "../../../http/validate";
import {
  approveRequestSchema,
  decisionResponseSchema,
  rejectRequestSchema,
  type ApproveBody,
  type RejectBody,
} from "../../../schemas/approval.schema";
import { jobListQuerySchema, jobListResponseSchema } from "../../../schemas/job-list.schema";
import { jobStepsQuerySchema, jobStepsResponseSchema } from "../../../schemas/job-steps.schema";
import { cancelledJobSchema, jobResponseSchema } from "../../../schemas/job-response.schema";

const jobParams = Joi.object({
  job_id: Joi.string().description("The `job_id` (or a batch's `batch_id`) a run was answered with"),
});
const noJob = apiError("No such job for this API key's account (`NOT_FOUND`)");
const notParked = apiError(
  "The run is not awaiting approval (`JOB_NOT_AWAITING_APPROVAL`, with `job_id`): it runs, ended, or another decision came first",
);

/** `POST /v1/jobs/{job_id}/approve` or `/reject`: a decision on a parked run's tool calls. */
function decisionOperation(
  decision: "approve" | "reject",
  body: Joi.ObjectSchema,
  summary: string,
  description: string,
): Operation {
  return {
    method: "post",
    path: `/v1/jobs/{job_id}/${decision}`,
    summary,
    description,
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    request: { body },
    responses: {
      200: { description: "Decided: the run goes on", body: decisionResponseSchema },
      404: noJob,
      409: notParked,
    },
  };
}

const jobsOperations: Operation[] = [
  {
    method: "get",
    path: "/v1/jobs",
    summary: "List your account's runs",
    description:
      "The runs of the caller's account (every key's), newest first: by default top-level runs only (single runs and batches, not their items; `include_items=true` adds them, `parent` lists one batch's), filtered by `status`, `kind` and creation time, `limit` at a time. Each is a summary (no request or output: read those with `GET /v1/jobs/{job_id}`). `next_cursor` pages on, stable while runs are created; a cursor that was altered, or sent with other filters or another account's key, is a 400 `INVALID_CURSOR`.",
    tags: ["Jobs"],
    access: "apiKey",
    query: jobListQuerySchema,
    responses: {
      200: { description: "A page of runs", body: jobListResponseSchema },
      400: apiError("A malformed or foreign `cursor` (`INVALID_CURSOR`)"),
      404: apiError("`parent` names no run of this API key's account (`NOT_FOUND`)"),
    },
  },
  {
    method: "get",
    path: "/v1/jobs/{job_id}",
    summary: "Read a run",
    description:
      "A succeeded run's stored response (as its endpoint answered it, with `status: success`); otherwise its state: `queued`, `running`, `failed` (with `detail` and `code`) or `cancelled`. A queued or running agent or swarm run carries `progress`: the LLM and tool calls finished so far (`steps_done`, each in `turns`) and, when the request fixes it, `steps_total`.",
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    responses: { 200: { description: "The run's response or state", body: jobResponseSchema }, 404: noJob },
  },
  {
    method: "get",
    path: "/v1/jobs/{job_id}/steps",
    summary: "A run's steps and what each cost",
    description:
      "Every LLM and tool call of the run in the order they finished (agent, role, model, input and output tokens, cost, latency, how it ended, start and end), then every charge that is not a call (per-agent fees, tool fees, images, refunds and discounts), so that the steps' costs add up to `total_cost`, the run's bill. A batch answers its items' steps in item order, each naming its item's `job_id`. Paged by `next_cursor`.",
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    query: jobStepsQuerySchema,
    responses: {
      200: { description: "A page of the run's steps", body: jobStepsResponseSchema },
      400: apiError("A malformed or foreign `cursor` (`INVALID_CURSOR`)"),
      404: noJob,
    },
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
  decisionOperation(
    "approve",
    approveRequestSchema,
    "Approve a parked run's tool calls",
    "A run `awaiting_approval` (an agent's `requires_approval` names a tool its model called) goes on: the approved calls run and the model reads their results; calls left out of `tool_call_ids` are rejected. The run is `queued` again and continues from its stored steps, no LLM call made or billed twice (docs/approvals.md). Priced at zero.",
  ),
  decisionOperation(
    "reject",
    rejectRequestSchema,
    "Reject a parked run's tool calls",
    "A run `awaiting_approval` goes on without running its pending calls: the model reads `reason` as each call's result and answers without it (docs/approvals.md). Priced at zero.",
  ),
];

/** `GET /v1/jobs` lists the caller's account's runs, `GET /v1/jobs/{job_id}` reads one, `DELETE` cancels one still going. */
export function jobsRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.get("/v1/jobs", async (ctx) => {
    ctx.body = await listJobs(deps.ds, ctx.state.auth.userId, validQuery<JobListQuery>(jobListQuerySchema, ctx.query));
  });
  router.get("/v1/jobs/:job_id", async (ctx) => {
    ctx.body = await readJob(deps, ctx.params.job_id, ctx.state.auth.userId);
  });
  router.get("/v1/jobs/:job_id/steps", async (ctx) => {
    const query = validQuery<JobStepsQuery>(jobStepsQuerySchema, ctx.query);
    ctx.body = await listJobSteps(deps.ds, ctx.params.job_id, ctx.state.auth.userId, query);
  });
  router.delete("/v1/jobs/:job_id", async (ctx) => {
    ctx.body = await cancelJob(deps, ctx.params.job_id, ctx.state.auth.userId);
  });
  router.post("/v1/jobs/:job_id/approve", validateBody<ApproveBody>(approveRequestSchema), async (ctx) => {
    const { tool_call_ids: toolCallIds } = ctx.state.body;
    ctx.body = await decideJob(deps, ctx.params.job_id, ctx.state.auth.userId, { approve: true, toolCallIds });
  });
  router.post("/v1/jobs/:job_id/reject", validateBody<RejectBody>(rejectRequestSchema), async (ctx) => {
    const { reason } = ctx.state.body;
    ctx.body = await decideJob(deps, ctx.params.job_id, ctx.state.auth.userId, { approve: false, reason });
  });
  return documentRoutes(router, ...jobsOperations);
}
