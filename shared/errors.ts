/**
 * Errors that carry their HTTP meaning. The API's error middleware is the only place that turns
 * them into response bodies; workers use them to tell permanent failures from transient ones.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra body fields the documented body adds for this error (e.g. `job_id`). */
    readonly extra: Record<string, unknown> = {},
    /** Response headers that go with it (e.g. a 504's `Location` and `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}, code = "BAD_REQUEST") {
    super(400, code, message, extra);
  }
}

export class AuthenticationError extends AppError {
  constructor() {
    super(401, "AUTHENTICATION_FAILED", "Invalid or missing API key");
  }
}

export class NotFoundError extends AppError {
  constructor(message = "Not found") {
    super(404, "NOT_FOUND", message);
  }
}

/** One problem found by schema validation, in the FastAPI `detail` item shape clients parse. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class ValidationError extends AppError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, "VALIDATION_ERROR", "Request validation failed");
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, "SERVICE_UNAVAILABLE", message);
  }
}
