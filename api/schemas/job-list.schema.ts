import Joi from "joi";
import { RUN_KINDS } from "../../shared/runs/run-kind-catalog";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { dollars, runId, timestamp } from "./response-fields";

/** A comma-separated list of some of `values` (`queued,running`). */
const listOf = (values: readonly string[]) =>
  Joi.string().pattern(new RegExp(`^(${values.join("|")})(,(${values.join("|")}))*$`), "a comma-separated list");

const statuses = Object.values(PUBLIC_STATUS);

/** `GET /v1/jobs`'s query: every parameter is optional; an unknown one is a 422, not ignored. */
export const jobListQuerySchema = Joi.object({
  status: listOf(statuses).description(`Only runs in these states (comma-separated): ${statuses.join(", ")}`),
  kind: listOf(RUN_KINDS).description(`Only runs of these kinds (comma-separated): ${RUN_KINDS.join(", ")}`),
  created_after: Joi.date().iso().description("Only runs created at or after this time (ISO 8601)"),
  created_before: Joi.date().iso().description("Only runs created before this time (ISO 8601)"),
  include_items: Joi.boolean()
    .default(false)
    .description("Also list batch items (by default only top-level runs: single runs and batches)"),
  parent: Joi.string()
    .max(100)
    .description("Only the items of this batch (its `batch_id` or `job_id`); 404 when the account has no such run"),
  limit: Joi.number().integer().min(1).max(100).default(20).description("How many runs (1–100)"),
  cursor: Joi.string()
    .max(1024)
    .description("`next_cursor` of the previous page, with the same filters; 400 `INVALID_CURSOR` otherwise"),
});

/** One run of `GET /v1/jobs`: a summary, never its request or output. */
const jobSummarySchema = Joi.object({
  job_id: runId.required(),
  kind: Joi.valid(...RUN_KINDS).required(),
  status: Joi.valid(...statuses).required(),
  created_at: timestamp.required(),
  started_at: timestamp.allow(null).required(),
  finished_at: timestamp.allow(null).required(),
  cost: dollars.allow(null).required().description("The run's bill (US dollars) once it has one, else null"),
  model: Joi.string().allow(null).required().description("The agent's model, when the request names one"),
  swarm_type: Joi.string().allow(null).required().description("A swarm's type"),
  parent_id: runId.allow(null).required().description("A batch item's batch"),
  item_index: Joi.number().integer().min(0).allow(null).required().description("A batch item's position"),
}).id("JobSummary");

/** `GET /v1/jobs`'s body. */
export const jobListResponseSchema = Joi.object({
  jobs: Joi.array().items(jobSummarySchema).required().description("Newest first"),
  next_cursor: Joi.string()
    .allow(null)
    .required()
    .description("Pass as `cursor` for the next page; null on the last page"),
}).id("JobList");
