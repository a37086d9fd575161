import Joi from "joi";
import { promptFields } from "./prompt-fields.schema";

/** `POST /api/add-prompt` body (docs/marketplace.md lists its fields); the joined rules are checked by `crossFieldProblems`. */
export const addPromptSchema = Joi.object({
  ...promptFields,
  name: promptFields.name.required(),
  prompt: promptFields.prompt.required(),
  useCases: promptFields.useCases.required(),
  tags: promptFields.tags.required(),
  is_free: promptFields.is_free.default(true),
  tokenized_on: promptFields.tokenized_on.default(false),
  links: promptFields.links.default([]),
});
