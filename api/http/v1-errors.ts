import type { Middleware } from "koa";
import { AppError, ValidationError } from "../../shared/errors";
import { outageAs503 } from "./service-outage";

/** The `/v1` error body: FastAPI's `detail` (what clients parse) plus a stable code and the status. */
function body(status: number, detail: unknown, code: string, extra: Record<string, unknown> = {}) {
  return { detail, code, status_code: status, ...extra };
}

const HTTP_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  501: "NOT_IMPLEMENTED",
};

/**
 * The one try/catch of the execution API: every thrown error becomes the contract's body. Postgres
 * or Redis being unreachable is a 503 the client may retry; other errors we did not make are
 * logged in full and answered with a bare 500 and the request id.
 */
export function v1Errors(howToGetKey: string): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // Nothing answered (404), or the router answered a wrong method (405, with `Allow`) bodiless.
      if (ctx.respond !== false && (ctx.body === undefined || ctx.body === null)) {
        const status = ctx.status;
        if (status === 404) ctx.body = body(404, `No route for ${ctx.method} ${ctx.path}`, "NOT_FOUND");
        else if (status === 405)
          ctx.body = body(
            405,
            `Method ${ctx.method} is not allowed here; allowed: ${ctx.response.get("allow")}`,
            "METHOD_NOT_ALLOWED",
          );
        else if (status === 501) ctx.body = body(501, `Method ${ctx.method} is not implemented`, "NOT_IMPLEMENTED");
        ctx.status = status; // assigning a body would otherwise turn an implicit 404 into 200
      }
    } catch (caught: unknown) {
      const err = outageAs503(ctx, caught);
      if (err instanceof ValidationError) {
        ctx.status = 422;
        ctx.body = body(422, err.issues, err.code);
      } else if (err instanceof AppError) {
        ctx.status = err.status;
        const extra = err.status === 401 ? { how_to_get_key: howToGetKey, ...err.extra } : err.extra;
        ctx.body = body(err.status, err.message, err.code, extra);
      } else if (typeof err?.status === "number" && err.status >= 400 && err.status < 500 && err.expose !== false) {
        // http-errors from koa-body and the router (malformed JSON, too large, wrong method).
        ctx.status = err.status;
        const detail = err.status === 400 ? `Malformed JSON body: ${err.message}` : err.message;
        ctx.body = body(err.status, detail, HTTP_CODES[err.status] ?? "HTTP_ERROR");
        if (err.headers) ctx.set(err.headers);
      } else {
        ctx.state.logger?.error({ err }, "unhandled error");
        ctx.status = 500;
        ctx.body = body(500, "Internal server error", "INTERNAL_ERROR", { request_id: ctx.state.requestId });
      }
    }
  };
}
