import Joi from "joi";
import { dollars, timestamp, tokenCount } from "./response-fields";

const sums = {
  calls: Joi.number().integer().min(0).required().description("Finished LLM and tool calls"),
  input_tokens: tokenCount.required(),
  output_tokens: tokenCount.required(),
  cost: dollars.required().description("US dollars billed for the calls"),
};
const day = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .description("A UTC day, `YYYY-MM-DD`");

/** `GET /v1/usage`. */
export const usageResponseSchema = Joi.object({
  status: Joi.valid("success").required(),
  days: Joi.number().integer().min(1).required().description("How many UTC days are counted, today included"),
  from: day.required(),
  to: day.required(),
  totals: Joi.object({ ...sums, total_tokens: tokenCount.required() }).required(),
  by_day: Joi.array()
    .items(
      Joi.object({
        date: day.required(),
        model: Joi.string().required(),
        ...sums,
        // A `discount` row credits the day's spend: its cost is negative.
        cost: Joi.number().required().description("US dollars billed for the calls; negative on a `discount` row"),
      }),
    )
    .required()
    .description("Spend by UTC day and model, oldest first (tool calls under `mcp:<tool>`)"),
  by_key: Joi.array()
    .items(
      Joi.object({
        key_id: Joi.string().uuid().allow(null).required().description("Null for the runs of deleted keys"),
        name: Joi.string().allow(null).required(),
        last4: Joi.string().allow(null).required().description("The key's last four characters; never the key"),
        last_used_at: timestamp.allow(null).required().description("When the key last started a run"),
        ...sums,
      }),
    )
    .required()
    .description("Every key of the account, revoked ones too, with what it spent in the window"),
  timestamp: timestamp.required(),
}).id("Usage");
