import Joi from "joi";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { timestamp } from "./response-fields";

/** A retried run's attempts in its job read (`presentAttempts`), oldest first; absent for a run never retried. */
export const jobAttemptsSchema = Joi.array()
  .items(
    Joi.object({
      attempt: Joi.number().integer().min(1).required(),
      retried_at: timestamp
        .allow(null)
        .required()
        .description("When the retry that started it was asked; null for the first"),
      retried_by: Joi.valid("client", "operator")
        .allow(null)
        .required()
        .description("`client`: `POST /v1/jobs/{job_id}/retry`; `operator`: Bull Board's Retry; null for the first"),
      model_override: Joi.object({
        model_name: Joi.string().required(),
        agents: Joi.array()
          .items(Joi.string())
          .required()
          .description("The agents (whose last turn had failed) it applies to"),
      })
        .allow(null)
        .required(),
      started_at: timestamp.allow(null).required(),
      finished_at: timestamp.allow(null).required(),
      status: Joi.valid(...Object.values(PUBLIC_STATUS))
        .required()
        .description("How it ended, or the run's state for the current one"),
      code: Joi.string().allow(null).required().description("Its failure's code, when it failed"),
    }).id("JobAttempt"),
  )
  .description("A retried run's attempts, oldest first, the current one last (only on a run that was retried)");
