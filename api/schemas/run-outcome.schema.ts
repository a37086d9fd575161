import Joi from "joi";

/** One agent's part in a run that stopped early: `agents[]` of failed, cancelled and wound-down runs. */
const agentOutcomeSchema = Joi.object({
  agent: Joi.string().required(),
  status: Joi.valid("succeeded", "failed", "skipped").required(),
  output: Joi.any().description("Its last answer, when it gave one (null otherwise)"),
  error: Joi.string().allow(null).description("Why it failed"),
}).id("AgentOutcome");

/** Each agent's outcome, request agents first in request order, then the type's own that ran. */
export const agentOutcomesSchema = Joi.array().items(agentOutcomeSchema);

/** The fields a run its budget wound down (`budget.on_exceeded: "wind_down"`) adds to its 200 answer. */
export const woundDownFields = {
  incomplete_details: Joi.object({
    reason: Joi.valid("budget_exceeded").required(),
    limit: Joi.valid("time", "cost", "tokens", "shared").required().description("The ceiling reached"),
    message: Joi.string().required(),
  }).description("Why the run stopped early (only when `status` is `incomplete`)"),
  agents: agentOutcomesSchema.description("What each agent did (only when `status` is `incomplete`)"),
};

/** What a run cut of outside content to its bounds (docs/limits.md), one entry per cut. */
const truncationSchema = Joi.object({
  what: Joi.valid("tool_result", "tool_arguments", "model_output", "tool_list").required(),
  agent: Joi.string().required().description("The agent whose turn it was"),
  source: Joi.string().description("The tool, or for `tool_list` the MCP server's URL"),
  received: Joi.number().integer().min(0).required().description("Its size as received"),
  kept: Joi.number().integer().min(0).required().description("How much of it the run kept"),
  unit: Joi.valid("characters", "tools").required(),
}).id("Truncation");

/** The field a run that cut outside content adds to its answer (absent when it cut nothing). */
export const truncatedField = {
  truncated: Joi.array()
    .items(truncationSchema)
    .description("Outside content (tool results and lists, tool arguments, model answers) cut to its bounds"),
};
