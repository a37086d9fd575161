import Joi from "joi";

/** One MarketplacePrompt of the marketplace listing: the hosted API's fields, exactly. */
const marketplacePromptSchema = Joi.object({
  id: Joi.string().required(),
  created_at: Joi.string().required(),
  user_id: Joi.string().required(),
  name: Joi.string().allow("").required(),
  description: Joi.string().allow("").required(),
  prompt: Joi.string()
    .allow("")
    .required()
    .description("Empty for paid prompts of other users; use them through `marketplace_prompt_id`"),
  use_cases: Joi.object()
    .pattern(Joi.string(), Joi.string().allow(""))
    .required()
    .description("Use-case title → description"),
  status: Joi.string().required(),
  tags: Joi.string().allow("").required(),
  category: Joi.string().allow("").required(),
  links: Joi.array()
    .items(
      Joi.alternatives(Joi.string(), Joi.object({ name: Joi.string().allow(""), url: Joi.string() }).unknown(true)),
    )
    .required(),
}).id("MarketplacePrompt");

/** `POST /v1/marketplace/agents` answer. */
export const marketplaceAgentsResponseSchema = Joi.object({
  prompts: Joi.array().items(marketplacePromptSchema).required(),
  total_count: Joi.number().integer().min(0).required().description("Every approved prompt"),
  status: Joi.valid("success").required(),
  timestamp: Joi.string().required().description("ISO 8601 without zone (UTC)"),
}).id("MarketplaceAgents");
