import Joi from "joi";
import { listingFields } from "./listing-fields.schema";

/** The fewest and the most listings a bundle holds: one listing is no bundle; a buyer reads the whole list on its page. */
const BUNDLE_ITEMS = { min: 2, max: 20 };

const items = Joi.array()
  .items(
    Joi.string()
      .trim()
      .guid()
      .lowercase()
      .messages({ "string.guid": "{{#label}} must be the id (UUID) of one of your prompts or agents" }),
  )
  .min(BUNDLE_ITEMS.min)
  .max(BUNDLE_ITEMS.max)
  .unique()
  .messages({ "array.unique": "{{#label}} is already in the bundle" })
  .description(
    `Ids of the caller's own prompts and agents (${BUNDLE_ITEMS.min}–${BUNDLE_ITEMS.max}, no repeats), in the order the bundle shows them`,
  );

/**
 * A bundle's fields with their own rules, without presence (publishing makes some required, editing none): the prompt
 * listing's fields, with `items` (its members) in place of `prompt`. Bundles are not tokenized.
 */
const bundleFields = { ...listingFields, items };

/** `POST /api/v1/publish/bundle` body (docs/marketplace-bundles.md lists its fields); a price when not free is checked after. */
export const publishBundleSchema = Joi.object({
  ...bundleFields,
  name: bundleFields.name.required(),
  items: bundleFields.items.required(),
  description: bundleFields.description.required(),
  useCases: bundleFields.useCases.required(),
  tags: bundleFields.tags.required(),
  is_free: bundleFields.is_free.default(true),
  links: bundleFields.links.default([]),
});

/** `POST /api/edit-bundle` body: only `id` is required; any field given is held to publishing's rule for it. */
export const editBundleSchema = Joi.object({
  id: Joi.string().trim().guid().required(),
  ...bundleFields,
});
