import Joi from "joi";

/**
 * A string that has to say something: whitespace alone is refused (422) like a missing value,
 * since a task or message of spaces could only be refused later by the worker, after a run was
 * stored and queued. The text itself is kept as sent.
 */
export function nonBlankString(): Joi.StringSchema {
  return Joi.string()
    .pattern(/\S/, { name: "non-blank" })
    .messages({ "string.pattern.name": "{{#label}} must not be blank" });
}
