import Joi from "joi";
import { agentSpecSchema } from "../../../schemas/agent-spec.schema";

const historyMessage = Joi.object({ role: Joi.string().required(), content: Joi.any().required() }).unknown(true);
const image = Joi.string().max(20_000_000);

/** E5 request: `agent_config` and `task`, plus the optional history and images agents take. */
export const agentCompletionSchema = Joi.object({
  agent_config: agentSpecSchema.required(),
  task: Joi.string().min(1).max(1_000_000).required(),
  history: Joi.alternatives(Joi.array().items(historyMessage).max(1_000), Joi.object().unknown(true)).allow(null),
  img: image.allow(null, ""),
  imgs: Joi.array().items(image).max(20).allow(null),
}).unknown(true);
