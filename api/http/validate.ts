import type Joi from "joi";
import type { Middleware } from "koa";
import { ValidationError, type ValidationIssue } from "../../shared/errors";
import { fieldPath, platformValidationError, type FieldProblem } from "../platform-error";
import { validateRequest } from "../schemas/validate-request";
import type { BodyState } from "./state";

/** Most problems an answer names; the rest are counted, so no answer grows with its request. */
export const SHOWN_ISSUES = 20;

/**
 * Turns joi's details into the FastAPI `detail` list: one entry per problem, all at once, up to
 * SHOWN_ISSUES and then one entry counting the rest (every answer, /v1, OpenAI-shaped or the
 * platform's, is built from this list).
 */
export function toIssues(error: Joi.ValidationError, root = "body"): ValidationIssue[] {
  const shown = error.details
    .slice(0, SHOWN_ISSUES)
    .map((d) => ({ loc: [root, ...d.path], msg: d.message.replace(/"/g, "'"), type: d.type }));
  const more = error.details.length - shown.length;
  return more > 0 ? [...shown, { loc: [root], msg: `and ${more} more problems`, type: "too_many_problems" }] : shown;
}

/**
 * The body-validation middleware: leaves the validated body, typed, in `ctx.state.body`, and
 * carries its schema so the OpenAPI document describes the route with this very schema.
 */
export type BodyValidator<Body> = Middleware<BodyState<Body>> & { bodySchema: Joi.Schema };

/** A whole-body rule's problems (rules that join fields). */
export type BodyCheck<Body> = (value: Body) => FieldProblem[];

/**
 * Validates the JSON body with `check` (which throws the app's error) and leaves the result in
 * `ctx.state.body`. No body at all reads as an empty object: its schema's defaults apply, or it
 * says what is missing.
 */
function bodyValidator<Body>(schema: Joi.Schema, check: (body: unknown) => Body): BodyValidator<Body> {
  const validate: Middleware<BodyState<Body>> = async (ctx, next) => {
    ctx.state.body = check(ctx.request.body === undefined ? {} : ctx.request.body);
    await next();
  };
  return Object.assign(validate, { bodySchema: schema });
}

/**
 * `/v1`: validates the body against a schema, applies its defaults, and refuses with a 422 listing
 * every issue. Unknown fields are dropped rather than refused, as the hosted API does.
 */
export function validateBody<Body>(schema: Joi.Schema): BodyValidator<Body> {
  return bodyValidator(schema, (body) => validV1Body<Body>(schema, body));
}

/** A `/v1` body checked against its schema, defaults applied; the 422 `ValidationError` listing every issue otherwise. */
export function validV1Body<Body>(schema: Joi.Schema, body: unknown): Body {
  const { value, error } = validateRequest(schema, body);
  if (error) throw new ValidationError(toIssues(error));
  return value as Body;
}

/**
 * The platform: the schema's problems and the whole-body check's, all in one 400 `Validation
 * error` with `errors: [{path, message}]`. A field with a problem of its own is not reported again
 * by the check. Unknown fields are dropped.
 */
export function validatePlatformBody<Body>(schema: Joi.Schema, check?: BodyCheck<Body>): BodyValidator<Body> {
  return bodyValidator(schema, (body) => validPlatformBody(schema, body, check));
}

/** A platform body (a JSON route's, or a page form's read as one) as `validatePlatformBody` checks it; throws its 400. */
export function validPlatformBody<Body>(schema: Joi.Schema, body: unknown, check?: BodyCheck<Body>): Body {
  const { value, error } = validateRequest(schema, body);
  const problems = error ? toIssues(error).map((i) => ({ path: fieldPath(i.loc), message: i.msg })) : [];
  if (check && value && typeof value === "object") {
    const reported = new Set(problems.map((p) => p.path));
    problems.push(...check(value as Body).filter((p) => !reported.has(p.path)));
  }
  if (problems.length > 0) throw platformValidationError(problems);
  return value as Body;
}
