import Joi from "joi";
import { RUN_KINDS } from "../../shared/db/entities/run.entity";
import { PUBLIC_STATUS } from "../runs/presenters/run-status";
import { agentBatchResponseSchema, agentCompletionResponseSchema } from "./agent-response.schema";
import { runId, timestamp } from "./response-fields";
import { swarmBatchResponseSchema, swarmResponseSchema } from "./swarm-response.schema";

/** 202 for `Prefer: respond-async` (or a batch that outlives the wait): where the result will be. */
export const acceptedRunSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid("queued").required(),
  status_url: Joi.string().required().description("`/v1/jobs/{job_id}`, also in `Location`"),
}).id("AcceptedRun");

/** A run that has not succeeded (yet): its state and timings, and its error once it failed. */
export const jobStateSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid(...Object.values(PUBLIC_STATUS)).required(),
  kind: Joi.valid(...RUN_KINDS).required(),
  queued_at: timestamp.required(),
  started_at: timestamp.allow(null).required(),
  finished_at: timestamp.allow(null).required(),
  detail: Joi.string().description("Why the run failed or was cancelled"),
  code: Joi.string(),
  usage: Joi.any().description("What the run used before it ended"),
}).id("JobState");

const succeeded = { status: Joi.valid("success").required() };

/** `GET /v1/jobs/{job_id}`: a succeeded run's stored response (with `status: success`), else its state. */
export const jobResponseSchema = Joi.alternatives(
  swarmResponseSchema,
  agentCompletionResponseSchema.keys(succeeded).id("AgentCompletionJob"),
  agentBatchResponseSchema.keys(succeeded).id("AgentBatchJob"),
  Joi.object({ job_id: runId.required(), results: swarmBatchResponseSchema.required(), ...succeeded }).id(
    "SwarmBatchJob",
  ),
  jobStateSchema,
);

/** `DELETE /v1/jobs/{job_id}`. */
export const cancelledJobSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid("cancelled").required(),
}).id("CancelledJob");
