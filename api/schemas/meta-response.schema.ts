import Joi from "joi";
import { RUN_KINDS } from "../../shared/runs/run-kind-catalog";
import { SWARM_TYPES } from "../../shared/swarms/swarm-catalog";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { runId, timestamp } from "./response-fields";

/** `GET /health` when Postgres and Redis answer. */
export const healthOkSchema = Joi.object({ status: Joi.valid("ok").required() }).id("HealthOk");

/** `GET /health` when one of them does not (503). */
export const healthDownSchema = Joi.object({
  status: Joi.valid("unavailable").required(),
  detail: Joi.string().required(),
  code: Joi.valid("SERVICE_UNAVAILABLE").required(),
  status_code: Joi.valid(503).required(),
  checks: Joi.object({ postgres: Joi.boolean().required(), redis: Joi.boolean().required() }).required(),
}).id("HealthDown");

/** `GET /livez`: the process answers (it looks at nothing else). */
export const liveSchema = Joi.object({ status: Joi.valid("ok").required() }).id("Live");

const readinessChecks = Joi.object({
  postgres: Joi.boolean().required().description("Postgres answers within a second"),
  redis: Joi.boolean().required().description("Redis answers within a second"),
  migrations: Joi.boolean().required().description("Every migration this code knows has been applied"),
  serving: Joi.boolean().required().description("The process is not draining after SIGTERM"),
});

/** `GET /readyz` when every check passed. */
export const readyOkSchema = Joi.object({
  status: Joi.valid("ready").required(),
  checks: readinessChecks.required(),
}).id("Ready");

/** `GET /readyz` when a check failed (503). */
export const readyDownSchema = Joi.object({
  status: Joi.valid("unavailable").required(),
  detail: Joi.string().required(),
  code: Joi.valid("SERVICE_UNAVAILABLE").required(),
  status_code: Joi.valid(503).required(),
  checks: readinessChecks.required(),
}).id("NotReady");

/** `GET /v1/swarms/available`. */
export const swarmTypesResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  swarm_types: Joi.array()
    .items(Joi.valid(...SWARM_TYPES))
    .required(),
}).id("SwarmTypes");

/** `GET /v1/models/available`. */
export const modelsResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  models: Joi.array().items(Joi.string()).required().description("Model ids usable now"),
  count: Joi.number().integer().min(0).required(),
  details: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().required(),
        provider: Joi.string().required(),
        available: Joi.boolean().required(),
      }),
    )
    .required()
    .description("The whole catalogue, each model with its provider and whether a key or gateway serves it"),
}).id("Models");

/** `GET /v1/swarm/logs`. */
export const runLogsResponseSchema = Joi.object({
  status: Joi.valid("success").required(),
  count: Joi.number().integer().min(0).required(),
  logs: Joi.array()
    .items(
      Joi.object({
        id: runId.required(),
        created_at: timestamp.required(),
        category: Joi.valid(...RUN_KINDS).required(),
        data: Joi.object({
          status: Joi.valid(...Object.values(PUBLIC_STATUS)).required(),
          request: Joi.any().required(),
          output: Joi.any().required(),
          usage: Joi.any().required(),
          error: Joi.any().required(),
          execution_time: Joi.number().min(0).allow(null).required(),
          finished_at: timestamp.allow(null).required(),
        }).required(),
      }),
    )
    .required()
    .description("The calling key's runs, newest first"),
  timestamp: timestamp.required(),
}).id("RunLogs");

const windowSchema = Joi.object({
  count: Joi.number().integer().min(0).required(),
  limit: Joi.number().integer().min(0).required(),
  remaining: Joi.number().integer().min(0).required(),
  exceeded: Joi.boolean().required(),
  reset_time: timestamp.required(),
});

/** `GET /v1/rate/limits`. */
export const rateLimitsResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  tier: Joi.string().required(),
  timestamp: timestamp.required(),
  limits: Joi.object({
    maximum_requests_per_minute: Joi.number().integer().min(0).required(),
    maximum_requests_per_hour: Joi.number().integer().min(0).required(),
    maximum_requests_per_day: Joi.number().integer().min(0).required(),
    tokens_per_agent: Joi.number().integer().min(0).required(),
  }).required(),
  rate_limits: Joi.object({
    minute: windowSchema.required(),
    hour: windowSchema.required(),
    day: windowSchema.required(),
  }).required(),
}).id("RateLimits");

/** `GET /`. */
export const rootResponseSchema = Joi.object({
  name: Joi.string().required(),
  version: Joi.string().required(),
  description: Joi.string().required(),
  docs_url: Joi.string().required().description("The reference page (Swagger UI), on this server"),
  openapi_url: Joi.string().required().description("This API's OpenAPI 3.1 document"),
  health_url: Joi.string().required().description("Whether the service can serve"),
  timestamp: timestamp.required(),
}).id("Root");
