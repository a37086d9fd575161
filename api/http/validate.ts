import type Joi from "joi";
import type { Middleware } from "koa";
import { ValidationError, type ValidationIssue } from "../../shared/errors";
import { validateRequest } from "../schemas/validate-request";

/** Turns joi's details into the FastAPI `detail` list: one entry per problem, all at once. */
export function toIssues(error: Joi.ValidationError, root = "body"): ValidationIssue[] {
  return error.details.map((d) => ({ loc: [root, ...d.path], msg: d.message.replace(/"/g, "'"), type: d.type }));
}

/** The body-validation middleware, carrying its schema so tests can check the route's description uses the same one. */
export type BodyValidator = Middleware & { bodySchema: Joi.Schema };

/**
 * Validates the JSON body against a schema, applies its defaults, and leaves the result in
 * `ctx.state.body`. Unknown fields are dropped rather than refused, as the hosted API does.
 */
export function validateBody(schema: Joi.Schema): BodyValidator {
  const validate: Middleware = async (ctx, next) => {
    // No body at all reads as an empty object: its schema's defaults apply, or it says what is missing.
    const { value, error } = validateRequest(schema, ctx.request.body === undefined ? {} : ctx.request.body);
    if (error) throw new ValidationError(toIssues(error));
    ctx.state.body = value;
    await next();
  };
  return Object.assign(validate, { bodySchema: schema });
}
