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
