import Joi from "joi";

/** `POST /v1/marketplace/agents` body: `number_of_items` 1–100, default 10 (null or absent means the default; so does no body at all). */
export const marketplaceAgentsSchema = Joi.object({
  number_of_items: Joi.number().integer().min(1).max(100).empty(null).default(10),
})
  .unknown(true)
  .default();

/** The marketplace listing's body, validated. */
export interface MarketplaceAgentsRequest {
  number_of_items: number;
}
