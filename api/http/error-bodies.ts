import { AppError, ValidationError } from "../../shared/errors";
import {
  AUTH_FAILED_MESSAGE,
  DEFAULT_CATEGORIES,
  PlatformError,
  platformValidationError,
  fieldPath,
} from "../platform-error";
import type { ErrorRenderer } from "./errors";

/** The `/v1` error body: FastAPI's `detail` (what clients parse) plus a stable code and the status. */
export function v1ErrorBody(status: number, detail: unknown, code: string, extra: Record<string, unknown> = {}) {
  return { detail, code, status_code: status, ...extra };
}

/** Codes of the http-errors koa-body and the router raise, on `/v1`. */
const V1_HTTP_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  501: "NOT_IMPLEMENTED",
};

/**
 * The execution API's bodies: a schema failure is a 422 whose `detail` lists every issue; every
 * 401 says where to get a key (`how_to_get_key`).
 */
export function v1ErrorBodies(howToGetKey: string): ErrorRenderer {
  return {
    render(err) {
      if (err instanceof ValidationError) return { status: 422, body: v1ErrorBody(422, err.issues, err.code) };
      const extra = err.status === 401 ? { how_to_get_key: howToGetKey, ...err.extra } : err.extra;
      return { status: err.status, body: v1ErrorBody(err.status, err.message, err.code, extra) };
    },
    fromHttpError(status, message) {
      const detail = status === 400 ? `Malformed JSON body: ${message}` : message;
      return new AppError(status, V1_HTTP_CODES[status] ?? "HTTP_ERROR", detail);
    },
    internalMessage: "Internal server error",
  };
}

/** The platform error body (docs/api.md, "Errors"): `{error, message, code?, details?, status_code}` plus extras. */
/** The platform's error body: `error` (the category), `message`, `code`, the status's extras and `status_code`. */
export function platformBody(
  status: number,
  error: string,
  message: string,
  code: string,
  extra: Record<string, unknown>,
) {
  return { error, message, ...(code ? { code } : {}), ...extra, status_code: status };
}

/**
 * The platform's bodies: schema failures are a 400 `Validation error` with `errors` (the
 * platform API has no 422); every 401 is the fixed body with `how_to_get_key`.
 */
export function platformErrorBodies(howToGetKey: string): ErrorRenderer {
  const render = (err: AppError): { status: number; body: Record<string, unknown> } => {
    if (err.status === 401) {
      const extra = { how_to_get_key: howToGetKey };
      return {
        status: 401,
        body: platformBody(401, "Authentication failed", AUTH_FAILED_MESSAGE, "AUTHENTICATION_FAILED", extra),
      };
    }
    if (err instanceof ValidationError) {
      const problems = err.issues.map((i) => ({ path: fieldPath(i.loc), message: i.msg }));
      return render(platformValidationError(problems));
    }
    const category = err instanceof PlatformError ? err.category : (DEFAULT_CATEGORIES[err.status] ?? "Error");
    return { status: err.status, body: platformBody(err.status, category, err.message, err.code, err.extra) };
  };
  return {
    render,
    fromHttpError(status, message) {
      if (status === 401) return new PlatformError(401, "Authentication failed", AUTH_FAILED_MESSAGE);
      const detail = status === 400 ? `Malformed request body: ${message}` : message;
      return new PlatformError(status, DEFAULT_CATEGORIES[status] ?? "Error", detail);
    },
    internalMessage: "Something went wrong on our side",
  };
}
