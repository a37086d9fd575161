import Joi from "joi";
import { agentSpecSchema } from "./agent-spec.schema";
import { budgetSchema } from "./budget.schema";
import { historySchema } from "./conversation.schema";
import { imageSchema } from "./image.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** What an agent run works on: text that is not blank (the worker has nothing to run without one). */
const task = nonBlankString().max(1_000_000);

/** What one agent run takes besides its spec: an agent completion's body, and each agent batch item. */
const agentRunFields = {
  history: historySchema
    .allow(null)
    .description("Earlier messages (`[{role, content}]`) or an object of earlier tasks and answers"),
  img: imageSchema.allow(null, "").description("An image for the task: http(s) URL, data URL or base64"),
  imgs: Joi.array().items(imageSchema).max(20).allow(null).description("Several images, as `img`"),
  tools_enabled: Joi.array()
    .items(Joi.string().max(200))
    .max(128)
    .allow(null)
    .description("Names of the tools the agent may use"),
  budget: budgetSchema,
};

/** `POST /v1/agent/completions` request: `agent_config` and `task`, plus history, images, streaming and a budget. */
export const agentCompletionSchema = Joi.object({
  ...webhookUrlField,
  agent_config: agentSpecSchema.required(),
  task: task.required(),
  stream: Joi.boolean().description("Same as `agent_config.streaming_on`: answer with Server-Sent Events"),
  ...agentRunFields,
})
  .unknown(true)
  .id("AgentCompletionRequest");

/**
 * An agent batch item (the hosted API's BatchAgentItem): `agent_config` and `task` required. The hosted
 * schema leaves `task` optional, but an item without one can only fail, so it is refused (422) before the batch is stored.
 */
const batchAgentItemSchema = Joi.object({
  ...webhookUrlField,
  agent_config: agentSpecSchema.required(),
  task: task
    .required()
    .description("Required here: the spec marks it optional, but an agent run without a task can only fail"),
  ...agentRunFields,
})
  .unknown(true)
  .id("BatchAgentItem");

/** `POST /v1/agent/batch/completions` body: an array of BatchAgentItem (its size is a rule checked by the service: 400, not 422). */
export const agentBatchSchema = Joi.array().items(batchAgentItemSchema).required();
