import { contentHash } from "./content-hash";
import type { PromptFields } from "./prompt-fields";
import type { PromptImage } from "./prompt-image";
import type { PromptPrice } from "./prompt-price";
import type { PromptValues } from "./prompt-row";

const orNull = (value: string | null | undefined) =>
  value === undefined || value === null || value === "" ? null : value;

/**
 * The columns that the given fields set (all of them for E7, the edited ones for E8). Secrets
 * and request-only fields (`private_key`, `creator_wallet`, the image bytes) have no column.
 */
export function promptValues(
  fields: Partial<PromptFields>,
  price?: PromptPrice,
  image?: PromptImage,
): Partial<PromptValues> {
  const values: Partial<PromptValues> = {};
  if (fields.name !== undefined) values.name = fields.name;
  if (fields.prompt !== undefined) {
    values.prompt = fields.prompt;
    values.content_hash = contentHash(fields.prompt);
  }
  if (fields.description !== undefined) values.description = orNull(fields.description);
  if (fields.useCases !== undefined) values.use_cases = fields.useCases;
  if (fields.tags !== undefined) values.tags = fields.tags;
  if (fields.is_free !== undefined) values.is_free = fields.is_free;
  if (fields.category !== undefined) values.category = orNull(fields.category);
  // The owner's status is a request to the moderators; the review decides `status` (see review-status).
  if (fields.status !== undefined) values.requested_status = fields.status;
  if (fields.tokenized_on !== undefined) values.tokenized_on = fields.tokenized_on;
  if (fields.ticker !== undefined) values.ticker = orNull(fields.ticker);
  if (fields.links !== undefined) values.links = fields.links;
  if (fields.seller_wallet_address !== undefined) values.seller_wallet_address = orNull(fields.seller_wallet_address);
  if (price) Object.assign(values, price);
  if (image) Object.assign(values, image);
  return values;
}
