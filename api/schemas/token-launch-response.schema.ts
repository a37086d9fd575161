import Joi from "joi";

/** `POST /api/token/launch` success: the listing and its launched token. */
export const tokenLaunchResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required().description("The agent listing's UUID"),
  listing_url: Joi.string().required().description("`{platform_url}/agent/{id}`"),
  tokenized: Joi.valid(true).required(),
  token_address: Joi.string().allow(null).required().description("The token's mint address"),
  pool_address: Joi.string()
    .allow(null)
    .required()
    .description("The bonding-curve pool (`meteora-dbc`); null for a plain Token-2022 mint"),
}).id("TokenLaunchResponse");

const batchFailureSchema = Joi.object({
  success: Joi.valid(false).required(),
  index: Joi.number().integer().min(0).required().description("The item's place in `tokens`"),
  error: Joi.object()
    .unknown(true)
    .required()
    .description(
      "The error body `POST /api/token/launch` would answer for this item (`error`, `message`, `code`, `status_code`, …)",
    ),
}).id("TokenLaunchBatchFailure");

/** `POST /api/token/launch/batch`: every item's outcome, in order (200 when all launched, else 207). */
export const tokenLaunchBatchResponseSchema = Joi.object({
  success: Joi.boolean().required().description("true when every item launched"),
  total: Joi.number().integer().required(),
  succeeded: Joi.number().integer().required(),
  failed: Joi.number().integer().required(),
  results: Joi.array()
    .items(
      Joi.alternatives(
        tokenLaunchResponseSchema
          .keys({ index: Joi.number().integer().min(0).required() })
          .id("TokenLaunchBatchSuccess"),
        batchFailureSchema,
      ),
    )
    .required()
    .description("One entry per item, in the order of `tokens`"),
  failures: Joi.array().items(batchFailureSchema).required().description("The failed entries of `results`"),
}).id("TokenLaunchBatchResponse");
