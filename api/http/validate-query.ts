import type Joi from "joi";
import { ValidationError } from "../../shared/errors";
import { toIssues } from "./validate";

/** A query string checked against its schema: the converted value, or a 422 naming every problem under `query`. */
export function validQuery<T>(schema: Joi.Schema, query: unknown): T {
  const { value, error } = schema.validate(query, { abortEarly: false, convert: true });
  if (error) throw new ValidationError(toIssues(error, "query"));
  return value as T;
}
