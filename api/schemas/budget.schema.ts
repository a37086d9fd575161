import Joi from "joi";

/** A run's optional ceilings; what is left out comes from the caller's tier (see `RUN_MAX_*`). */
export const budgetSchema = Joi.object({
  max_tokens: Joi.number().integer().min(1),
  max_cost: Joi.number().positive(),
  timeout_seconds: Joi.number().integer().min(1).max(86_400),
});
