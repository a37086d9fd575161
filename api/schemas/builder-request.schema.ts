import Joi from "joi";
import { config } from "../../shared/config";
import { EXECUTION_TYPES } from "../../shared/contracts/auto-swarm-builder";
import { budgetSchema } from "./budget.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** What the Builder designs for: required here, though the SDK marks it optional, since a design without a task can only fail. */
const task = nonBlankString()
  .max(1_000_000)
  .required()
  .description(
    "What the design is for (required: the SDK marks it optional, but there is nothing to design without it)",
  );

/** The model the Builder designs on and the generated agents run on; unset or null: `DEFAULT_MODEL`. */
const modelName = nonBlankString()
  .max(200)
  .allow(null)
  .empty(null)
  .default(config.llm.defaultModel)
  .description("The model the Builder designs on and the generated agents run on (default: `DEFAULT_MODEL`)");

/** `POST /v1/auto-swarm-builder/completions` (SDK: AutoSwarmBuilderCreateCompletionParams). Nulls read as unset. */
export const autoSwarmBuilderSchema = Joi.object({
  ...webhookUrlField,
  name: Joi.string().max(100).allow(null, "").description("The swarm's name (else the Builder names it)"),
  description: Joi.string()
    .max(10_000)
    .allow(null, "")
    .description("What the swarm is for (else the Builder describes it)"),
  task,
  model_name: modelName,
  max_tokens: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .allow(null)
    .empty(null)
    .description(
      "Output limit of the Builder's call and of each generated agent (default 8000, or the model's limit where lower)",
    ),
  max_loops: Joi.number()
    .integer()
    .min(1)
    .max(50)
    .allow(null)
    .empty(null)
    .default(1)
    .description("The designed swarm's `max_loops` (in `return-swarm-router-config`)"),
  execution_type: Joi.string()
    .valid(...EXECUTION_TYPES)
    .allow(null)
    .empty(null)
    .default("return-agents")
    .description("What `outputs` holds (see `GET /v1/auto-swarm-builder/execution-types`)"),
  budget: budgetSchema,
})
  .unknown(true)
  .id("AutoSwarmBuilderRequest");

/** `POST /v1/agents/auto-generate`: the hosted docs' `{task}`, with the model and output limit optional. */
export const agentGenerateSchema = Joi.object({
  ...webhookUrlField,
  task,
  model_name: modelName,
  max_tokens: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .allow(null)
    .empty(null)
    .description(
      "Output limit of the Builder's call and of the generated agent (default 8192, or the model's limit where lower)",
    ),
  budget: budgetSchema,
})
  .unknown(true)
  .id("AgentGenerateRequest");
