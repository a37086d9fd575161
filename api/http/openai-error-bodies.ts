import { AppError, ValidationError } from "../../shared/errors";
import type { ErrorRenderer } from "./errors";

/** OpenAI's error `type` by status; any other 4xx is `invalid_request_error`, any 5xx `server_error`. */
const TYPES: Record<number, string> = {
  401: "authentication_error",
  403: "permission_error",
  429: "rate_limit_error",
};

/** OpenAI's `code` for ours where OpenAI has its own; the rest are ours in lower case. */
const CODES: Record<string, string> = {
  AUTHENTICATION_FAILED: "invalid_api_key",
  RATE_LIMITED: "rate_limit_exceeded",
  MODEL_NOT_FOUND: "model_not_found",
  UNKNOWN_MODEL: "model_not_found",
};

/** OpenAI's status where it differs from ours: a model the provider does not have is its 404, not our 400. */
const STATUSES: Record<string, number> = { UNKNOWN_MODEL: 404 };

const typeOf = (status: number) => TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");

/** `["body", "messages", 0, "role"]` → `messages[0].role`, the way OpenAI names a parameter. */
function paramOf(loc: (string | number)[]): string | null {
  const path = loc.slice(1);
  if (path.length === 0) return null;
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}

/** The error body OpenAI's SDKs read: `{error: {message, type, param, code}}`, plus our extras (`job_id`, …). */
function openAiBody(status: number, message: string, code: string, param: unknown, extra: Record<string, unknown>) {
  const error = { message, type: typeOf(status), param: typeof param === "string" ? param : null, code };
  return { error: { ...error, ...extra } };
}

/**
 * The OpenAI-compatible paths' bodies, in OpenAI's status conventions: a schema failure is a 400
 * naming the first parameter at fault (every problem in the message); a 401 says where to get a
 * key; rate limits, idempotency conflicts and failed runs keep their status, code and headers.
 */
export function openAiErrorBodies(howToGetKey: string): ErrorRenderer {
  return {
    render(err) {
      if (err instanceof ValidationError) {
        const message = err.issues.map((i) => i.msg).join("; ");
        const missing = err.issues[0]?.type === "any.required";
        const code = missing ? "missing_required_parameter" : "invalid_value";
        return { status: 400, body: openAiBody(400, message, code, paramOf(err.issues[0]?.loc ?? []), {}) };
      }
      const { param, ...extra } = err.extra;
      const message = err.status === 401 ? `${err.message}; get one at ${howToGetKey}` : err.message;
      const code = CODES[err.code] ?? err.code.toLowerCase();
      const status = STATUSES[err.code] ?? err.status;
      const named = param ?? (code === "model_not_found" ? "model" : undefined);
      return { status, body: openAiBody(status, message, code, named, extra) };
    },
    fromHttpError(status, message) {
      const detail = status === 400 ? `We could not parse the JSON body of your request: ${message}` : message;
      return new AppError(status, status === 400 ? "INVALID_JSON" : `HTTP_${status}`, detail);
    },
    internalMessage: "The server had an error while processing your request",
  };
}
