import { apiErrorBodySchema, platformErrorBodySchema, validationErrorBodySchema } from "../schemas/error-body.schema";
import { openAiErrorBodySchema } from "../schemas/openai-response.schema";
import type { Access, OpenApiObject, Operation, ResponseSpec, SharedHeader } from "./operation";

/** Security schemes by access; each entry of the list is one way to authenticate. */
export const SECURITY_SCHEMES: Record<string, OpenApiObject> = {
  ApiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "Your API key" },
  ApiKeyBearer: { type: "http", scheme: "bearer", description: "Your API key as `Authorization: Bearer <key>`" },
  PlatformBearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "API key or session JWT",
    description: "An API key, or a session token of the identity backend",
  },
};

export const SECURITY_BY_ACCESS: Record<Access, Record<string, string[]>[] | undefined> = {
  apiKey: [{ ApiKeyHeader: [] }, { ApiKeyBearer: [] }],
  platform: [{ PlatformBearer: [] }],
  platformOptional: [{ PlatformBearer: [] }, {}],
  public: [],
};

/** Request headers described once, by the name operations use. */
export const SHARED_HEADERS: Record<SharedHeader, { component: string; parameter: OpenApiObject }> = {
  Prefer: {
    component: "Prefer",
    parameter: {
      name: "Prefer",
      in: "header",
      required: false,
      description:
        "RFC 7240. `respond-async`: answer 202 at once with the job's id and `Location`; `wait=<seconds>`: how long to wait for the result before answering 504 (at most the server's `SYNC_WAIT_MS`).",
      schema: { type: "string" },
      examples: { async: { value: "respond-async" }, wait: { value: "wait=30" } },
    },
  },
  "Idempotency-Key": {
    component: "IdempotencyKey",
    parameter: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "1–255 printable ASCII characters. The same key with the same body within 24 h returns the first answer again (`Idempotent-Replayed: true`) instead of starting another run; with another body it is 409 `IDEMPOTENCY_KEY_REUSED`.",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
    },
  },
  "X-Stainless-Retry-Count": {
    component: "RetryCount",
    parameter: {
      name: "X-Stainless-Retry-Count",
      in: "header",
      required: false,
      description:
        "How many times the client sent this request before, a whole number (the official SDKs send it, from 0; any other value is ignored). From 1, a request repeating an earlier attempt of the same key, body and `User-Agent` whose answer never reached the client (it left, or was answered 504, a failed run's 500 or 409 `RUN_CANCELLED`) answers from that attempt's run instead of starting one; remembered for 5 minutes.",
      schema: { type: "string", examples: ["1"] },
    },
  },
  "X-Stainless-Timeout": {
    component: "ClientTimeout",
    parameter: {
      name: "X-Stainless-Timeout",
      in: "header",
      required: false,
      description:
        "The client's time-out in whole seconds (the official SDKs send it for a request given its own `timeout`; 0 and any other value are ignored): a run still going is answered 504 with its `job_id` a little before it.",
      schema: { type: "string", examples: ["60"] },
    },
  },
};

const count = { type: "integer", minimum: 0 };
/** The rate-limit headers of every `/v1` answer past authentication. */
export const RATE_LIMIT_HEADERS: Record<string, OpenApiObject> = {
  "X-RateLimit-Limit-Minute": { description: "Requests allowed per minute", schema: count },
  "X-RateLimit-Remaining-Minute": { description: "Requests left this minute", schema: count },
  "X-RateLimit-Limit-Hour": { description: "Requests allowed per hour", schema: count },
  "X-RateLimit-Remaining-Hour": { description: "Requests left this hour", schema: count },
  "X-RateLimit-Limit-Day": { description: "Requests allowed per day", schema: count },
  "X-RateLimit-Remaining-Day": { description: "Requests left today", schema: count },
  "X-RateLimit-Reset": { description: "Seconds until the minute window resets", schema: count },
  "X-RateLimit-Tier": { description: "The key's tier", schema: { type: "string" } },
};

/** A `/v1` error answer: `{detail, code, status_code}`. */
export const apiError = (description: string): ResponseSpec => ({ description, body: apiErrorBodySchema });
/** A platform error answer: `{error, message, code?, details?, status_code}`. */
export const platformError = (description: string): ResponseSpec => ({ description, body: platformErrorBodySchema });

/**
 * The answers every operation of a kind may give besides its own: authentication, rate limits,
 * body parsing and schema validation, internal errors. An operation's own entry for a status wins.
 */
export function sharedResponses(op: Operation): Record<number, ResponseSpec> {
  const takesInput = Boolean(op.request || op.query);
  const shared: Record<number, ResponseSpec> = {};
  if (op.errorBodies === "openai") return openAiSharedResponses(op);
  if (op.access === "apiKey") {
    if (op.request) {
      shared[400] = apiError("The body is not JSON, or is malformed (`INVALID_BODY`, `BAD_REQUEST`)");
      shared[413] = apiError("The body is over the size limit");
    }
    if (op.headers?.includes("Idempotency-Key")) {
      shared[409] = apiError(
        "`IDEMPOTENCY_KEY_REUSED` (the key was used with another body), `IDEMPOTENCY_KEY_IN_PROGRESS`, or `IDEMPOTENCY_REPLAY_UNAVAILABLE` (the first answer was a stream)",
      );
    }
    if (takesInput)
      shared[422] = {
        description: "The request does not match its schema: every problem, located",
        body: validationErrorBodySchema,
      };
    shared[401] = apiError("Missing or invalid API key (`AUTHENTICATION_FAILED`, with `how_to_get_key`)");
    shared[429] = {
      ...apiError(
        "A rate limit of the key or of its account is reached, or, for a request that starts runs, the account's token or cost ceiling of the UTC day (`RATE_LIMITED`, the message names which)",
      ),
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
    };
    shared[500] = apiError("An internal error (`INTERNAL_ERROR`, with `request_id`)");
    shared[503] = apiError("Rate limiting is unavailable (`SERVICE_UNAVAILABLE`)");
  } else if (op.access === "platform" || op.access === "platformOptional") {
    if (takesInput)
      shared[400] = platformError("`Validation error`: every field problem in `errors`, or a malformed body");
    if (op.request) shared[413] = platformError("The body is over the size limit");
    shared[401] = platformError(
      "`Authentication failed`: missing or invalid API key or session (with `how_to_get_key`)",
    );
    shared[500] = platformError("An internal error (with `request_id`)");
  }
  return shared;
}

/** An error answer of the OpenAI-compatible paths: `{error: {message, type, param, code}}`. */
export const openAiError = (description: string): ResponseSpec => ({ description, body: openAiErrorBodySchema });

/** The answers every OpenAI-compatible operation may give, in OpenAI's bodies and statuses (no 422). */
function openAiSharedResponses(op: Operation): Record<number, ResponseSpec> {
  const shared: Record<number, ResponseSpec> = {
    401: openAiError("Missing or invalid API key (`authentication_error`, `invalid_api_key`)"),
    429: {
      ...openAiError(
        "A rate limit of the key or of its account is reached, or, for a request that starts runs, the account's token or cost ceiling of the UTC day (`rate_limit_error`, `rate_limit_exceeded`)",
      ),
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
    },
    500: openAiError("An internal error (`server_error`, with `request_id`)"),
    503: openAiError("Rate limiting is unavailable (`server_error`, `service_unavailable`)"),
  };
  if (op.request) {
    shared[400] = openAiError(
      "The body is not JSON, or does not match the schema (`invalid_request_error`; `param` names the first parameter at fault, the message every problem)",
    );
    shared[413] = openAiError("The body is over the size limit");
  }
  if (op.headers?.includes("Idempotency-Key"))
    shared[409] = openAiError(
      "`idempotency_key_reused` (the key was used with another body), `idempotency_key_in_progress`, or `idempotency_replay_unavailable` (the first answer was a stream)",
    );
  return shared;
}
