import { AppError } from "../shared/errors";

/**
 * An error of the platform API, in its documented shape (docs/api.md, "Errors"): a short category (`error`), a readable
 * `message`, an optional stable `code`, and the extras it defines for its status
 * (`errors`, `existingId`, `currentUsage`, `required_sol`, …).
 */
export class PlatformError extends AppError {
  constructor(
    status: number,
    readonly category: string,
    message: string,
    extra: Record<string, unknown> = {},
    code = PlatformError.defaultCode(status),
  ) {
    super(status, code, message, extra);
  }

  static defaultCode(status: number): string {
    return DEFAULT_CODES[status] ?? "ERROR";
  }
}

const DEFAULT_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "AUTHENTICATION_FAILED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "DAILY_LIMIT_EXCEEDED",
  500: "INTERNAL_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

/** The category shown in `error` for statuses raised without one. */
export const DEFAULT_CATEGORIES: Record<number, string> = {
  400: "Bad request",
  401: "Authentication failed",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Validation error",
  429: "Too many requests",
  500: "Internal server error",
  501: "Not implemented",
  503: "Service unavailable",
};

/** One field problem in a 400 `errors` list. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** A problem's field path as the platform names it (`agents.0.name`): its location without the root `body`. */
export function fieldPath(loc: (string | number)[]): string {
  return (loc[0] === "body" ? loc.slice(1) : loc).join(".");
}

/** 400 `Validation error` listing every field problem at once. */
export function platformValidationError(errors: FieldProblem[]): PlatformError {
  const details = Object.fromEntries(errors.map((e) => [e.path, e.message]));
  return new PlatformError(
    400,
    "Validation error",
    errors.map((e) => e.message).join("; "),
    { errors, details },
    "VALIDATION_ERROR",
  );
}

/** The fixed 401 of every platform endpoint (clients match its fixed `error` and `message`). */
export const AUTH_FAILED_MESSAGE = "Invalid or missing API key. Please check your API key and try again.";
