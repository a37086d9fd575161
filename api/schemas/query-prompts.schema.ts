import Joi from "joi";
import { PRICE_FILTERS, SORTS } from "../marketplace/prompts/query-prompts";

/**
 * The prompt query's largest body: its filters take a few hundred bytes at their longest; this is far more, yet
 * an anonymous caller's body costs a small fraction of what `BODY_LIMIT` (10 MB) would.
 */
export const QUERY_PROMPTS_BODY_KB = 128;

/** `POST /api/query-prompts` body: every field optional and bounded (anything outside them is a 400). */
export const queryPromptsSchema = Joi.object({
  search: Joi.string().trim().allow("", null).max(100),
  category: Joi.string().trim().allow("", null).max(50),
  priceFilter: Joi.string()
    .valid(...PRICE_FILTERS)
    .default("all"),
  userFilter: Joi.string()
    .trim()
    .guid()
    .allow("", null)
    .messages({ "string.guid": "{{#label}} must be a user id (UUID)" }),
  sortBy: Joi.string()
    .valid(...SORTS)
    .default("newest"),
  limit: Joi.number().integer().min(1).max(100).default(6),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
});
