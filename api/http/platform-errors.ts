import type { Middleware } from "koa";
import { AppError, ValidationError } from "../../shared/errors";
import { outageAs503 } from "./service-outage";
import { AUTH_FAILED_MESSAGE, DEFAULT_CATEGORIES, PlatformError } from "../platform-error";

/** The spec's platform error body: `{error, message, code?, details?, status_code}` plus extras. */
function body(
  status: number,
  error: string,
  message: string,
  code: string | undefined,
  extra: Record<string, unknown> = {},
) {
  return { error, message, ...(code ? { code } : {}), ...extra, status_code: status };
}

/**
 * The one try/catch of the platform app. Schema failures become 400 `Validation error` with
 * `errors` (the spec's platform has no 422); every 401 is the fixed body with `how_to_get_key`;
 * Postgres or Redis being unreachable is a 503; other errors we did not make are logged and
 * answered with a bare 500.
 */
export function platformErrors(howToGetKey: string): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.respond !== false && (ctx.body === undefined || ctx.body === null)) {
        const status = ctx.status;
        if (status === 404) ctx.body = body(404, "Not found", `No route for ${ctx.method} ${ctx.path}`, "NOT_FOUND");
        else if (status === 405)
          ctx.body = body(
            405,
            "Method not allowed",
            `Method ${ctx.method} is not allowed here; allowed: ${ctx.response.get("allow")}`,
            "METHOD_NOT_ALLOWED",
          );
        else if (status === 501)
          ctx.body = body(501, "Not implemented", `Method ${ctx.method} is not implemented`, "NOT_IMPLEMENTED");
        ctx.status = status;
      }
    } catch (caught: unknown) {
      const err = outageAs503(ctx, caught);
      if (err?.status === 401 || (err instanceof AppError && err.status === 401)) {
        ctx.status = 401;
        ctx.body = body(401, "Authentication failed", AUTH_FAILED_MESSAGE, "AUTHENTICATION_FAILED", {
          how_to_get_key: howToGetKey,
        });
      } else if (err instanceof ValidationError) {
        const errors = err.issues.map((i) => ({ path: i.loc.filter((p) => p !== "body").join("."), message: i.msg }));
        ctx.status = 400;
        ctx.body = body(400, "Validation error", errors.map((e) => e.message).join("; "), "VALIDATION_ERROR", {
          errors,
          details: Object.fromEntries(errors.map((e) => [e.path, e.message])),
        });
      } else if (err instanceof PlatformError) {
        ctx.status = err.status;
        ctx.body = body(err.status, err.category, err.message, err.code, err.extra);
      } else if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = body(err.status, DEFAULT_CATEGORIES[err.status] ?? "Error", err.message, err.code, err.extra);
      } else if (typeof err?.status === "number" && err.status >= 400 && err.status < 500 && err.expose !== false) {
        // http-errors from koa-body and the router (malformed JSON, too large, wrong method).
        ctx.status = err.status;
        const message = err.status === 400 ? `Malformed request body: ${err.message}` : err.message;
        ctx.body = body(
          err.status,
          DEFAULT_CATEGORIES[err.status] ?? "Error",
          message,
          PlatformError.defaultCode(err.status),
        );
        if (err.headers) ctx.set(err.headers);
      } else {
        ctx.state.logger?.error({ err }, "unhandled error");
        ctx.status = 500;
        ctx.body = body(500, "Internal server error", "Something went wrong on our side", "INTERNAL_ERROR", {
          request_id: ctx.state.requestId,
        });
      }
    }
  };
}
