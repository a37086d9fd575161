import type Joi from "joi";
import type { Middleware } from "koa";
import { platformValidationError, type FieldProblem } from "../platform-error";
import { toIssues, type BodyValidator } from "./validate";

/** A check of the whole validated body (rules that join fields); returns every problem found. */
export type BodyCheck = (value: any) => FieldProblem[];

/**
 * Validates a platform JSON body: the schema's problems and the whole-body check's, all in one
 * 400 `Validation error` with `errors: [{path, message}]`. A field with a problem of its own is
 * not reported again by the check. Unknown fields are dropped; the result is `ctx.state.body`.
 */
export function validatePlatformBody(schema: Joi.Schema, check?: BodyCheck): BodyValidator {
  const validate: Middleware = async (ctx, next) => {
    const { value, error } = schema.validate(ctx.request.body === undefined ? {} : ctx.request.body, {
      abortEarly: false,
      stripUnknown: true,
      convert: true,
    });
    const problems: FieldProblem[] = error
      ? toIssues(error).map((i) => ({ path: i.loc.slice(1).join("."), message: i.msg }))
      : [];
    if (check && value && typeof value === "object") {
      const reported = new Set(problems.map((p) => p.path));
      problems.push(...check(value).filter((p) => !reported.has(p.path)));
    }
    if (problems.length > 0) throw platformValidationError(problems);
    ctx.state.body = value;
    await next();
  };
  // The OpenAPI document describes the route with this very schema.
  return Object.assign(validate, { bodySchema: schema });
}
