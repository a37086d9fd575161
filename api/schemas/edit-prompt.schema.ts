import Joi from "joi";
import { promptFields } from "./prompt-fields.schema";

/** `POST /api/edit-prompt` body: only `id` is required; any prompt field given is held to prompt creation's rule for it. */
export const editPromptSchema = Joi.object({
  id: Joi.string().trim().guid().required(),
  ...promptFields,
});
