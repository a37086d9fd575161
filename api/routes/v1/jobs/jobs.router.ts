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
import { retryJob, type RetryJobBody } from "../../../runs/client-retry";
import { validateBody } from "../../../http/validate";
import { writeReply } from "../../../http/write-reply";
import { jobRetryRequestSchema, retriedRunSchema } from "../../../schemas/job-retry.schema";
import { decideJob } from "../../../runs/approvals";
import {
  approveRequestSchema,
  decisionResponseSchema,
  rejectRequestSchema,
  type ApproveBody,
  type RejectBody,
} from "../../../schemas/approval.schema";
import { jobListQuerySchema, jobListResponseSchema } from "../../../schemas/job-list.schema";
import { jobStepsQuerySchema, jobStepsResponseSchema } from "../../../schemas/job-steps.schema";
import { jobEvents } from "../../../runs/job-events";
import { eventStream } from "../run.openapi";
import { cancelledJobSchema, jobResponseSchema } from "../../../schemas/job-response.schema";

/** A client's retry of its failed run. */
const JOB_RETRY_PATH = "/v1/jobs/{job_id}/retry";

/** Whether a path (lower case, no trailing slash) is a run's retry: it starts runs, so it counts against the daily spend (see `admissionOf`). */
export const isJobRetryPath = (path: string): boolean => /^\/v1\/jobs\/[^/]+\/retry$/.test(path);

const jobParams = Joi.object({
  job_id: Joi.string().description("The `job_id` (or a batch's `batch_id`) a run was answered with"),
});
const noJob = apiError("No such job for this API key's account (`NOT_FOUND`)");
const eventsQuery = Joi.object({
  last_event_id: Joi.string().description(
    "The `id` of the last frame the client has, for clients that cannot set the `Last-Event-ID` header (the header wins)",
  ),
});
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
  {
    method: "post",
    path: JOB_RETRY_PATH,
    summary: "Retry a failed run from its last good step",
    description:
      "Starts a failed run of the caller's account again (whatever failed it: a provider, an agent, its time or spend budget). The new attempt reuses every LLM and tool call the run finished, from the record: they are not sent again nor billed again, and only its new calls are charged. It is admitted and queued like a new run (the rate limits, the account's daily spend, fair dispatch) and answered 202 at once, as `Prefer: respond-async` is: poll `GET /v1/jobs/{job_id}` (which lists the run's `attempts`), follow its steps (each says its `attempt` and whether it was `reused`), or give a `webhook_url`. `model_name` gives the agents whose last turn failed another model (agent and swarm runs). A batch, a batch item and a token launch are not retried; nor is a run that is queued, running, succeeded or cancelled (409). Of two retries at once, one is answered 202 and the other 409 `JOB_NOT_FINISHED`. Free: only the attempt's new calls are billed.",
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    request: { body: jobRetryRequestSchema, description: "Optional: no body retries the run as it was" },
    responses: {
      202: {
        description: "The run is queued again: `status_url` reads it",
        body: retriedRunSchema,
        headers: { Location: { description: "`/v1/jobs/{job_id}`", schema: { type: "string" } } },
      },
      400: apiError(
        "`model_name` names a model the service cannot serve, or the run names no agents' models (`MODEL_OVERRIDE_UNSUPPORTED`); `webhook_url` is refused (`INVALID_WEBHOOK_URL`, `EGRESS_REFUSED`)",
      ),
      404: noJob,
      409: apiError(
        "The run is not retried (with `job_id`): `JOB_NOT_FINISHED` (queued or running, or another retry just re-opened it), `JOB_NOT_FAILED` (it succeeded or was cancelled; with `status`), `JOB_NOT_RETRYABLE` (a batch, a batch item, a token launch, a revoked key, older than a day)",
      ),
    },
  },
  {
    method: "get",
    path: "/v1/jobs/{job_id}/events",
    summary: "Stream a run's events",
    description:
      "An agent, swarm or reasoning agent run's frames (a batch's items each have their own), from the start or after the frame named by `Last-Event-ID` (header) or `last_event_id` (query): the recorded frames, then the run live until it ends. A run started as a stream is told as its streaming endpoint sent it, from its Redis record; any other run, and one whose Redis record expired (an hour after its last event), from its stored record: an `event: step` frame per finished call, then its ending, with `s<n>.<k>` ids. Each frame has an `id:`; `: ping` comments keep an idle stream open.",
    tags: ["Jobs"],
    access: "apiKey",
    pathParams: jobParams,
    query: eventsQuery,
    responses: {
      200: {
        description: "The run's frames",
        content: eventStream("The frames of the run's streaming endpoint, each with its `id:` line", [
          'id: 0b9c…:meta\ndata: {"job_id":"0b9c…","type":"metadata"}',
          'id: 0b9c…:0.0\nevent: start\ndata: {"timestamp":"2026-01-01T00:00:00.000Z"}',
        ]),
      },
      400: apiError("`Last-Event-ID` is not the id of a frame this job's stream sent (`INVALID_LAST_EVENT_ID`)"),
      404: noJob,
      409: apiError("The run's kind has no event stream (`NO_EVENT_STREAM`, with `job_id`)"),
      410: apiError(
        "The Redis record `Last-Event-ID` belongs to has expired (`EVENTS_EXPIRED`, with `job_id`): stream the job from its start",
      ),
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

const JOB_EVENTS_PATH = "/v1/jobs/:job_id/events";

/** Whether a routed path (lower case, no trailing slash) is `/v1/jobs/{job_id}/events`, which holds its request open. */
export const isJobEventsPath = (path: string) => /^\/v1\/jobs\/[^/]+\/events$/.test(path);

/**
 * `GET /v1/jobs` lists the caller's account's runs, `GET /v1/jobs/{job_id}` reads one (`/steps` its steps,
 * `/events` its event stream), `DELETE` cancels one still going, `POST /v1/jobs/{job_id}/retry` starts a failed one
 * again from its last good step.
 */
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
  router.get(JOB_EVENTS_PATH, async (ctx) => {
    const lastEventId = ctx.get("last-event-id") || (ctx.query.last_event_id as string | undefined);
    await writeReply(ctx, await jobEvents(deps, ctx.params.job_id, ctx.state.auth.userId, lastEventId));
  });
  router.delete("/v1/jobs/:job_id", async (ctx) => {
    ctx.body = await cancelJob(deps, ctx.params.job_id, ctx.state.auth.userId);
  });
  router.post("/v1/jobs/:job_id/retry", validateBody<RetryJobBody>(jobRetryRequestSchema), async (ctx) => {
    await writeReply(ctx, await retryJob(deps, ctx.params.job_id, ctx.state.auth, ctx.state.body));
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
