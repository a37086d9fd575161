import Joi from "joi";
import { dollars, timestamp, tokenCount } from "./response-fields";

/** The longest custom window `GET /v1/usage/report` sums: a year, leap day included. */
const USAGE_REPORT_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/** A real calendar day written `YYYY-MM-DD` (so `2026-02-30` is refused, not rolled over). */
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const calendarDay = Joi.string()
  .pattern(DAY_PATTERN)
  .custom((value: string, helpers) => {
    if (!DAY_PATTERN.test(value)) return value; // the pattern has said so already
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : helpers.error("any.invalid");
  })
  .messages({
    "string.pattern.base": "{{#label}} must be a day written YYYY-MM-DD",
    "any.invalid": "{{#label}} is not a calendar day",
  });

/**
 * `GET /v1/usage/report`'s query: a `period` ending today, or a custom window of whole UTC days
 * (`start_date` and `end_date` together, both included), which wins over `period`. Other
 * parameters are ignored, as elsewhere in the API.
 */
export const usageReportQuerySchema = Joi.object({
  period: Joi.string()
    .valid("day", "week", "month")
    .default("month")
    .description("`day`: today; `week`: the last 7 UTC days; `month`: the last 30 UTC days (each today included)"),
  start_date: calendarDay.description("The first UTC day of a custom window (with `end_date`; wins over `period`)"),
  end_date: calendarDay
    .custom((value: string, helpers) => {
      // Checked here rather than on the whole query, so it is reported beside any other problem.
      const start: unknown = helpers.state.ancestors[0]?.start_date;
      if (typeof start !== "string" || !DAY_PATTERN.test(start) || !DAY_PATTERN.test(value)) return value;
      const days = (Date.parse(value) - Date.parse(start)) / DAY_MS + 1;
      if (days < 1) return helpers.error("window.reversed");
      if (days > USAGE_REPORT_MAX_DAYS) return helpers.error("window.long");
      return value;
    })
    .messages({
      "window.reversed": "{{#label}} is before start_date",
      "window.long": `a custom window spans at most ${USAGE_REPORT_MAX_DAYS} days`,
    })
    .description(`The last UTC day of a custom window, at most ${USAGE_REPORT_MAX_DAYS} days long`),
})
  .and("start_date", "end_date")
  .messages({ "object.and": "start_date and end_date go together: give both, or neither" })
  .unknown(true);

const sums = {
  llm_calls: Joi.number().integer().min(0).required().description("Finished LLM and tool calls (the step ledger)"),
  input_tokens: tokenCount.required(),
  output_tokens: tokenCount.required(),
  total_tokens: tokenCount.required(),
  total_cost: dollars.required().description("US dollars billed for those calls"),
};
const requestCount = Joi.number()
  .integer()
  .min(0)
  .required()
  .description("Completion calls queued (a batch counts its items; token launches are not completions)");
const day = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .description("A UTC day, `YYYY-MM-DD`");
const modelSums = Joi.object({
  model: Joi.string().required(),
  ...sums,
  // A `discount` row credits the period's spend: its cost is negative.
  total_cost: Joi.number().required().description("US dollars billed for those calls; negative on a `discount` row"),
}).id("UsageReportModel");

/** `GET /v1/usage/report`. */
export const usageReportResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  period: Joi.valid("day", "week", "month", "custom").required(),
  start_date: day.required(),
  end_date: day.required(),
  results: Joi.array()
    .items(
      Joi.object({
        day: day.required(),
        request_count: requestCount,
        ...sums,
        by_model: Joi.array().items(modelSums).required().description("The day's calls by model"),
      }),
    )
    .required()
    .description("The days with activity, oldest first"),
  by_model: Joi.array().items(modelSums).required().description("The window's calls by model"),
  by_kind: Joi.array()
    .items(Joi.object({ kind: Joi.string().required(), request_count: requestCount, ...sums }))
    .required()
    .description("The window's calls by kind of run (`agent`, `swarm`, ...)"),
  totals: Joi.object({ request_count: requestCount, ...sums })
    .required()
    .description("The window in total: the sum of `results`, of `by_model` and of `by_kind` alike"),
  timestamp: timestamp.required(),
}).id("UsageReport");
