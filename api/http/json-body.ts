import type { Middleware } from "koa";
import { koaBody } from "koa-body";
import { BadRequestError, ValidationError } from "../../shared/errors";
import { rethrowBodyParseError } from "./body-parse-errors";
import { findJsonHazard, MAX_JSON_DEPTH } from "./json-hazards";

/** `application/json` and every `+json` type: the ones the guard lets through must be the ones parsed. */
const JSON_TYPES = ["json", "+json"];

/**
 * Parses JSON bodies up to the size limit. A body in another content type is refused with a 400 and a clear
 * message rather than silently read as empty. A parsed body nested deeper than `MAX_JSON_DEPTH`
 * is refused (400) before anything recurses over it, and a string or key Postgres cannot store
 * (a NUL character, an unpaired surrogate) is a validation error at its location.
 */
export function jsonBody(limit: string): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: false,
    jsonLimit: limit,
    jsonTypes: JSON_TYPES,
    urlencoded: false,
    text: false,
    multipart: false,
    onError: rethrowBodyParseError,
  });
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get("transfer-encoding") !== "";
    if (hasBody && ["POST", "PUT", "PATCH"].includes(ctx.method) && !ctx.is(JSON_TYPES)) {
      throw new BadRequestError("Request body must be JSON: send Content-Type: application/json", {}, "INVALID_BODY");
    }
    return parse(ctx, async () => {
      refuseHazards(ctx.request.body);
      await next();
    });
  };
}

function refuseHazards(body: unknown): void {
  const hazard = findJsonHazard(body);
  if (!hazard) return;
  if (hazard.kind === "depth")
    throw new BadRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, {}, "INVALID_BODY");
  const where = hazard.path.slice(0, hazard.inKey ? -1 : undefined).join(".") || "body";
  const msg = hazard.inKey
    ? `'${where}' has a key with a NUL character or an unpaired surrogate`
    : `'${where}' must not contain NUL characters or unpaired surrogates`;
  throw new ValidationError([{ loc: ["body", ...hazard.path], msg, type: "string.unstorable" }]);
}
