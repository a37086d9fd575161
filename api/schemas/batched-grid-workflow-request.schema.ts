import Joi from "joi";
import { agentSpecSchema } from "./agent-spec.schema";
import { budgetSchema } from "./budget.schema";
import { imageSchema } from "./image.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** Most agents, and most tasks, of a grid; their product is bounded too (`GRID_MAX_CELLS`, a 400). */
const GRID_MAX_SIDE = 100;

/** `POST /v1/batched-grid-workflow/completions` (the hosted API's BatchedGridWorkflowInput). */
export const batchedGridWorkflowRequestSchema = Joi.object({
  ...webhookUrlField,
  name: Joi.string().max(100).allow(null, ""),
  description: Joi.string().max(10_000).allow(null, ""),
  agent_completions: Joi.array()
    .items(agentSpecSchema)
    .min(1)
    .max(GRID_MAX_SIDE)
    .required()
    .description("The grid's columns: every agent takes every task"),
  tasks: Joi.array()
    .items(nonBlankString().max(1_000_000))
    .min(1)
    .max(GRID_MAX_SIDE)
    .required()
    .description("The grid's rows"),
  imgs: Joi.array()
    .items(imageSchema)
    .max(GRID_MAX_SIDE)
    .allow(null)
    .description("`imgs[i]` goes with `tasks[i]`, to every agent on that task (no more images than tasks)"),
  max_loops: Joi.number()
    .integer()
    .min(1)
    .max(50)
    .allow(null)
    .empty(null)
    .default(1)
    .description("Rounds: from the second, each agent improves its own previous answer to the task"),
  budget: budgetSchema,
})
  .unknown(true)
  .id("BatchedGridWorkflowRequest");
