import type { Middleware } from "koa";
import { koaBody } from "koa-body";
import { BadRequestError } from "../../shared/errors";
import { rethrowBodyParseError } from "./body-parse-errors";

/**
 * Parses JSON bodies up to the size limit. A body in another content type is refused with a 400 and a clear
 * message rather than silently read as empty.
 */
export function jsonBody(limit: string): Middleware {
  const parse = koaBody({ json: true, jsonStrict: false, jsonLimit: limit, urlencoded: false, text: false, multipart: false, onError: rethrowBodyParseError });
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get("transfer-encoding") !== "";
    if (hasBody && ["POST", "PUT", "PATCH"].includes(ctx.method) && !ctx.is("json", "+json")) {
      throw new BadRequestError("Request body must be JSON: send Content-Type: application/json", {}, "INVALID_BODY");
    }
    return parse(ctx, next);
  };
}
