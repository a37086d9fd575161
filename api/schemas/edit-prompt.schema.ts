import Joi from "joi";
import { promptFields } from "./prompt-fields.schema";

/** E8 body: only `id` is required; any E7 field given is held to E7's rule for it. */
export const editPromptSchema = Joi.object({
  id: Joi.string().trim().guid().required(),
  ...promptFields,
});
