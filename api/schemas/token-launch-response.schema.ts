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
