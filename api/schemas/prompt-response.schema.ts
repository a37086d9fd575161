import Joi from "joi";

const text = Joi.string().allow("");
const nullableText = text.allow(null);

/** The platform API's Prompt record. */
export const promptRecordSchema = Joi.object({
  id: Joi.string().required(),
  user_id: Joi.string().required(),
  name: Joi.string().required(),
  prompt: text.required().description("Empty for a paid prompt of another user"),
  description: nullableText.required(),
  use_cases: Joi.array()
    .items(Joi.object({ title: text.required(), description: text.required() }))
    .required(),
  tags: nullableText.required(),
  is_free: Joi.boolean().required(),
  price_usd: Joi.number().allow(null).required(),
  price: Joi.number().allow(null).required().description("`price_usd` in the network currency (SOL)"),
  category: nullableText.required(),
  status: Joi.valid("pending", "approved", "rejected").required(),
  tokenized_on: Joi.boolean().required(),
  image_url: nullableText.required(),
  file_path: nullableText.required(),
  links: Joi.array()
    .items(Joi.alternatives(Joi.string(), Joi.object({ name: text, url: Joi.string() }).unknown(true)))
    .required(),
  seller_wallet_address: nullableText.required(),
  created_at: Joi.string().required(),
  updated_at: Joi.string().required(),
}).id("PromptRecord");

const tokenFields = {
  tokenized: Joi.boolean().required().description("true when the prompt's token was launched (`tokenized_on`)"),
  token_address: Joi.string().allow(null).required().description("The token's mint address, when tokenized"),
  pool_address: Joi.string().allow(null).required().description("The token's pool (`meteora-dbc`), when there is one"),
};

/** `POST /api/add-prompt` success. */
export const addPromptResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  listing_url: Joi.string().required(),
  ...tokenFields,
}).id("AddPromptResponse");

/** `POST /api/edit-prompt` success. */
export const editPromptResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  listing_url: Joi.string().required(),
  updated_data: promptRecordSchema.required(),
}).id("EditPromptResponse");

/** `POST /api/query-prompts` success. */
export const queryPromptsResponseSchema = Joi.array().items(promptRecordSchema).id("QueryPromptsResponse");

/** Rating success. */
export const ratePromptResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  rating: Joi.number().integer().min(1).max(5).required(),
  review_count: Joi.number().integer().min(0).required(),
  average_rating: Joi.number().allow(null).required(),
}).id("RatePromptResponse");

/** Moderation success: the decision and the prompt as stored after it (moderators read paid text too). */
export const moderatePromptResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  status: Joi.valid("approved", "rejected").required(),
  listing_url: Joi.string().required(),
  updated_data: promptRecordSchema.required(),
}).id("ModeratePromptResponse");
