import Joi from "joi";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { runId, timestamp, tokenCount } from "./response-fields";

/** `GET /v1/jobs/{job_id}/steps`'s query; an unknown parameter is a 422, not ignored. */
export const jobStepsQuerySchema = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100).description("How many steps (1–500)"),
  cursor: Joi.string().max(1024).description("`next_cursor` of the previous page; 400 `INVALID_CURSOR` otherwise"),
});

/** A line of a run's bill, negative for a refund or a discount. */
const signedDollars = Joi.number().description("US dollars, in whole millionths");

/** One step of a run: an LLM or tool call, or a charge that is not a call. */
const jobStepSchema = Joi.object({
  job_id: runId.required().description("The run the step is of (a batch's item, for a batch)"),
  type: Joi.valid("llm", "tool", "charge").required(),
  agent: Joi.string().allow(null).required(),
  role: Joi.string()
    .allow(null)
    .required()
    .description("What the call was for (`worker`, `internal`, `reasoning`, `tool`…); null for a charge"),
  model: Joi.string()
    .allow(null)
    .required()
    .description("The model, or `tool:<name>` / `mcp:<tool>` for a tool call; null for a charge"),
  input_tokens: tokenCount.required(),
  output_tokens: tokenCount.required(),
  cost: signedDollars.required(),
  latency_ms: Joi.number().integer().min(0).required(),
  status: Joi.valid("finished", "cut_off", "interrupted", "charged", "credited")
    .required()
    .description("How a call ended (see the billing ledger); a charge is `charged`, a refund or discount `credited`"),
  charge: Joi.valid("agent", "image", "tool", "mcp_call", "search", "discount")
    .allow(null)
    .required()
    .description("What a charge pays for; null for a call"),
  started_at: timestamp.required(),
  finished_at: timestamp.required(),
  attempt: Joi.number()
    .integer()
    .min(1)
    .required()
    .description("The attempt of the run that made it (1 unless the run was retried: see `attempts` in its job read)"),
  reused: Joi.boolean()
    .required()
    .description(
      "Made by an earlier attempt and taken from the record by the later ones, not made or billed again (a cut-off or interrupted call never is)",
    ),
}).id("JobStep");

/** `GET /v1/jobs/{job_id}/steps`'s body. */
export const jobStepsResponseSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid(...Object.values(PUBLIC_STATUS)).required(),
  total_cost: signedDollars.required().description("The sum of every step's cost: the run's bill once it has ended"),
  total_steps: Joi.number().integer().min(0).required(),
  steps: Joi.array().items(jobStepSchema).required().description("Calls in the order they finished, then charges"),
  next_cursor: Joi.string().allow(null).required().description("Pass as `cursor` for the next page; null on the last"),
}).id("JobSteps");
