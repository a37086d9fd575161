import Joi from "joi";
import { promptRecordSchema } from "./prompt-response.schema";

const nullableText = Joi.string().allow("", null);

/** The platform API's Agent record: the Prompt record with `agent` for the text, and the agent's own fields. */
const agentRecordSchema = promptRecordSchema
  .fork(["prompt", "tokenized_on"], (field) => field.forbidden())
  .keys({
    agent: Joi.string().allow("").required().description("Empty for a paid agent of another user"),
    language: nullableText.required(),
    requirements: Joi.array()
      .items(Joi.object({ package: Joi.string().required(), installation: Joi.string().allow("").required() }))
      .required(),
    agent_config: Joi.object()
      .unknown(true)
      .allow(null)
      .required()
      .description("The AgentSpec given; null when none was, or for a paid agent of another user"),
  })
  .id("AgentRecord");

/** `POST /api/add-agent` success. */
export const addAgentResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  listing_url: Joi.string().required(),
}).id("AddAgentResponse");

/** `POST /api/edit-agent` success. */
export const editAgentResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  listing_url: Joi.string().required(),
  updated_data: agentRecordSchema.required(),
}).id("EditAgentResponse");

/** `POST /api/query-agents` success. */
export const queryAgentsResponseSchema = Joi.array().items(agentRecordSchema).id("QueryAgentsResponse");
