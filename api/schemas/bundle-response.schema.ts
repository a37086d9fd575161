import Joi from "joi";
import { promptRecordSchema } from "./prompt-response.schema";

const bundleItemSchema = Joi.object({
  id: Joi.string().required(),
  kind: Joi.valid("prompt", "agent").required(),
  name: Joi.string().required(),
  description: Joi.string().allow("", null).required(),
  status: Joi.valid("pending", "approved", "rejected").required(),
}).id("BundleItem");

/** The platform API's Bundle record: the Prompt record with `items` (the members, in order) for the text. */
const bundleRecordSchema = promptRecordSchema
  .fork(["prompt", "tokenized_on"], (field) => field.forbidden())
  .keys({ items: Joi.array().items(bundleItemSchema).required() })
  .id("BundleRecord");

/** `POST /api/v1/publish/bundle` success. */
export const publishBundleResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  listing_url: Joi.string().required(),
}).id("PublishBundleResponse");

/** `POST /api/edit-bundle` success. */
export const editBundleResponseSchema = Joi.object({
  success: Joi.valid(true).required(),
  id: Joi.string().required(),
  listing_url: Joi.string().required(),
  updated_data: bundleRecordSchema.required(),
}).id("EditBundleResponse");

/** `POST /api/query-bundles` success. */
export const queryBundlesResponseSchema = Joi.array().items(bundleRecordSchema).id("QueryBundlesResponse");
