import Joi from "joi";
import { agentSpecSchema } from "../../../schemas/agent-spec.schema";
import { budgetSchema } from "../../../schemas/budget.schema";

const historyMessage = Joi.object({ role: Joi.string().required(), content: Joi.any().required() }).unknown(true);
const image = Joi.string().max(20_000_000);

/** What one agent run takes besides its spec: E5's body, and each E3 item. */
const agentRunFields = {
  history: Joi.alternatives(Joi.array().items(historyMessage).max(1_000), Joi.object().unknown(true))
    .allow(null)
    .description("Earlier messages (`[{role, content}]`) or an object of earlier tasks and answers"),
  img: image.allow(null, "").description("An image for the task: http(s) URL, data URL or base64"),
  imgs: Joi.array().items(image).max(20).allow(null).description("Several images, as `img`"),
  tools_enabled: Joi.array().items(Joi.string().max(200)).max(128).allow(null).description("Names of the tools the agent may use"),
  budget: budgetSchema,
};

/** E5 request: `agent_config` and `task`, plus history, images, streaming and a budget. */
export const agentCompletionSchema = Joi.object({
  agent_config: agentSpecSchema.required(),
  task: Joi.string().min(1).max(1_000_000).required(),
  stream: Joi.boolean().description("Same as `agent_config.streaming_on`: answer with Server-Sent Events"),
  ...agentRunFields,
})
  .unknown(true)
  .id("AgentCompletionRequest");

/** E3 item (spec: BatchAgentItem): `agent_config` required, `task` optional. */
export const batchAgentItemSchema = Joi.object({
  agent_config: agentSpecSchema.required(),
  task: Joi.string().max(1_000_000).allow(null, ""),
  ...agentRunFields,
})
  .unknown(true)
  .id("BatchAgentItem");

/** E3 body: an array of BatchAgentItem (its size is a rule checked by the service: 400, not 422). */
export const agentBatchSchema = Joi.array().items(batchAgentItemSchema).required();
