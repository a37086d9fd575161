import Joi from "joi";
import { dollars, nullableString, runId, timestamp, tokenCount } from "./response-fields";

/** The hosted API's usage object of its workflow endpoints. */
const workflowUsageSchema = Joi.object({
  input_tokens: tokenCount.required(),
  output_tokens: tokenCount.required(),
  total_tokens: tokenCount.required(),
  token_cost: dollars.required().description("US dollars for the tokens (input and output)"),
  cost_per_agent: dollars.required().description("US dollars charged for the agents (per-agent fee × agents)"),
}).id("WorkflowUsage");

const common = {
  job_id: runId.required(),
  status: Joi.valid("success").required(),
  name: nullableString.required(),
  description: nullableString.required(),
  usage: workflowUsageSchema.required(),
  timestamp: timestamp.required().description("When the run finished"),
};

/** `POST /v1/graph-workflow/completions`' answer (the hosted API's GraphWorkflowOutput). */
export const graphWorkflowResponseSchema = Joi.object({
  ...common,
  outputs: Joi.object()
    .pattern(Joi.string(), Joi.any())
    .required()
    .description(
      "Every node's output under its agent_name; with `max_loops` > 1 also `<name>_loop_<n>` for each loop n (the plain names hold the last loop's)",
    ),
}).id("GraphWorkflowResponse");

/** `POST /v1/batched-grid-workflow/completions`' answer (the hosted API's BatchedGridWorkflowOutput). */
export const batchedGridWorkflowResponseSchema = Joi.object({
  ...common,
  outputs: Joi.array()
    .items(Joi.object().pattern(Joi.string(), Joi.any()))
    .required()
    .description("One object per task, in task order: every agent's final answer under its agent_name"),
}).id("BatchedGridWorkflowResponse");
