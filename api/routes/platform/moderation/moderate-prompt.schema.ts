import Joi from "joi";

/** The moderation endpoint's body: which prompt, the decision, and optionally why. */
export const moderatePromptSchema = Joi.object({
  prompt_id: Joi.string().trim().guid().required().description("The prompt to decide on"),
  status: Joi.string().valid("approved", "rejected").required().description("`approved` lists the prompt in the marketplace; `rejected` hides it from everyone but its owner"),
  reason: Joi.string().trim().allow("", null).max(2_000).description("Why, for the record (kept with the prompt)"),
});
