import Joi from "joi";

/**
 * What the worker sends a provider as an image: an http(s) URL, a data URL, or raw base64 it wraps
 * in one. No flags: the pattern is documented as it is, and OpenAPI patterns have none.
 */
const IMAGE_REFERENCE = /^(?:https?:\/\/\S+|data:[^,\s]*,\S+|[A-Za-z0-9+/]+={0,2})$/;

/**
 * `img`, `imgs` items: an image in one of the forms the service sends on (README "What an agent
 * does"). Anything else, blank text included, would only be refused by the model's provider after
 * the run was stored and billed.
 */
export const imageSchema = Joi.string()
  .max(20_000_000)
  .pattern(IMAGE_REFERENCE, { name: "image" })
  .messages({ "string.pattern.name": "{{#label}} must be an http(s) URL, a data URL or base64 image data" });
