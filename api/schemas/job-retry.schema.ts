import Joi from "joi";
import { acceptedRunSchema } from "./job-response.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** `POST /v1/jobs/{job_id}/retry`'s body: optional, and so is each field. */
export const jobRetryRequestSchema = Joi.object({
  model_name: nonBlankString()
    .max(200)
    .description(
      "Another model for the agents whose last turn failed (the request's agents and handoffs; agent and swarm runs), checked as every run's model is",
    ),
  ...webhookUrlField,
}).id("JobRetryRequest");

/** 202: the run is queued again, as a `Prefer: respond-async` run answers, with its attempt's number. */
export const retriedRunSchema = acceptedRunSchema
  .keys({ attempt: Joi.number().integer().min(2).required().description("The number of the attempt now queued") })
  .id("RetriedRun");
