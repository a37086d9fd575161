import Joi from "joi";

/** A run's optional ceilings; what is left out comes from the caller's tier (see `RUN_MAX_*`). */
export const budgetSchema = Joi.object({
  max_tokens: Joi.number().integer().min(1).description("Most tokens (input and output) the run may use"),
  max_cost: Joi.number().positive().description("Most US dollars the run may cost"),
  timeout_seconds: Joi.number().integer().min(1).max(86_400).description("Longest the run may take"),
  on_exceeded: Joi.valid("fail", "wind_down").description(
    "At a ceiling: `fail` (the default: 500 `BUDGET_EXCEEDED` with what finished) or `wind_down` (agent and swarm runs: stop starting work and answer 200 with `status: incomplete` and what finished)",
  ),
})
  // A misspelt ceiling must not be dropped in silence (bodies are otherwise validated with stripUnknown).
  .prefs({ stripUnknown: false })
  .description("Ceilings of this run; the key's tier fills in what is left out; unknown fields are refused");
