import Joi from "joi";
import { promptFields } from "./prompt-fields.schema";

/**
 * The fields every listing beside a prompt (an agent, a bundle) takes as a prompt does, without presence; each kind
 * adds its own text (`agent`, `items`). The description is required there, so it must say something.
 */
export const listingFields = {
  name: promptFields.name,
  description: Joi.string().trim().min(1).max(5_000),
  useCases: promptFields.useCases,
  tags: promptFields.tags,
  is_free: promptFields.is_free,
  price_usd: promptFields.price_usd,
  category: promptFields.category,
  status: promptFields.status,
  image_url: promptFields.image_url,
  file_path: promptFields.file_path,
  image_base64: promptFields.image_base64,
  links: promptFields.links,
  seller_wallet_address: promptFields.seller_wallet_address,
};
