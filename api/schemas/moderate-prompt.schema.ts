import Joi from "joi";

/** The moderation endpoint's body: which prompt (as reviewed), the decision, and optionally why. */
export const moderatePromptSchema = Joi.object({
  prompt_id: Joi.string().trim().guid().required().description("The prompt to decide on"),
  status: Joi.string()
    .valid("approved", "rejected")
    .required()
    .description("`approved` lists the prompt in the marketplace; `rejected` hides it from everyone but its owner"),
  updated_at: Joi.date()
    .iso()
    .required()
    .description(
      "The `updated_at` of the prompt record the moderator reviewed: a prompt changed since is not decided on (409 `PROMPT_CHANGED`)",
    ),
  reason: Joi.string().trim().allow("", null).max(2_000).description("Why, for the record (kept with the prompt)"),
});
