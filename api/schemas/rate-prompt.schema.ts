import Joi from "joi";

/** Rating body: the prompt, 1–5 stars, an optional comment. */
export const ratePromptSchema = Joi.object({
  id: Joi.string().trim().guid().required(),
  rating: Joi.number().integer().min(1).max(5).required(),
  comment: Joi.string().allow("", null).max(2_000),
});
