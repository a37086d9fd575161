import Joi from "joi";
import { agentOutcomesSchema } from "./run-outcome.schema";

/**
 * The `/v1` error body (docs/api.md, "Errors"): FastAPI's `detail`, a stable `code` and the status, plus the
 * extras some errors carry. These schemas document responses; nothing validates with them at run time.
 */
export const apiErrorBodySchema = Joi.object({
  detail: Joi.string().required().description("What went wrong, readable"),
  code: Joi.string()
    .pattern(/^[A-Z][A-Z0-9_]*$/)
    .required()
    .description("Stable UPPER_SNAKE code"),
  status_code: Joi.number().integer().min(400).max(599).required(),
  job_id: Joi.string().description(
    "The run the error is about (a failed run's 500, 504 RUN_TIMEOUT, 409 RUN_CANCELLED and JOB_FINISHED)",
  ),
  agent: Joi.string().description("The agent whose turn failed (a failed run's 500)"),
  agents: agentOutcomesSchema.description(
    "A failed or cancelled run's agents (request agents in request order, then the type's own): what finished, what failed and what never started",
  ),
  usage: Joi.object()
    .unknown(true)
    .description("What a failed or cancelled run spent until it stopped, in its endpoint's usage shape"),
  how_to_get_key: Joi.string().uri().description("Where to get an API key (401)"),
  request_id: Joi.string().description("Quote it when reporting an internal error (500 INTERNAL_ERROR)"),
}).id("ApiError");

const validationIssueSchema = Joi.object({
  loc: Joi.array()
    .items(Joi.alternatives(Joi.string(), Joi.number().integer()))
    .required()
    .description('Where: `["body", ...path]` or `["query", name]`'),
  msg: Joi.string().required(),
  type: Joi.string().required().description("The rule that failed, e.g. `string.max`"),
});

/** 422: every schema problem of the request at once. */
export const validationErrorBodySchema = Joi.object({
  detail: Joi.array().items(validationIssueSchema).min(1).required(),
  code: Joi.valid("VALIDATION_ERROR").required(),
  status_code: Joi.valid(422).required(),
}).id("ValidationErrorBody");

/** The platform's error body (docs/api.md, "Errors"): `{error, message, code?, details?, status_code}` plus its extras by status. */
export const platformErrorBodySchema = Joi.object({
  error: Joi.string().required().description("Short category, e.g. `Validation error`"),
  message: Joi.string().required(),
  code: Joi.string().pattern(/^[A-Z][A-Z0-9_]*$/),
  details: Joi.any(),
  status_code: Joi.number().integer().min(400).max(599).required(),
  errors: Joi.array()
    .items(Joi.object({ path: Joi.string().allow("").required(), message: Joi.string().required() }))
    .description("400: one entry per field problem"),
  existingId: Joi.string().description("400 duplicate: the prompt already stored"),
  trustworthiness: Joi.number().min(0).max(10),
  contentQuality: Joi.number().min(0).max(10),
  required_sol: Joi.number().description("400 `Insufficient SOL balance`: the least a launching wallet must hold"),
  current_balance_sol: Joi.number().description("400 `Insufficient SOL balance`: what the wallet holds"),
  id: Joi.string().description("500 `LAUNCH_PENDING`: the listing or prompt whose launch is still being confirmed"),
  listing_url: Joi.string().description("500 `LAUNCH_PENDING`: its page, once launched"),
  how_to_get_key: Joi.string().uri(),
  currentUsage: Joi.object().unknown(true),
  limits: Joi.object().unknown(true),
  resetTime: Joi.string(),
  hint: Joi.string(),
  request_id: Joi.string(),
}).id("PlatformError");
