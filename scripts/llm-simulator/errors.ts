import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { sendJson } from "./http-io";

/** `type` and `code` as the real API reports them for each status, so client error mapping works. */
function classify(status: number): { type: string; code: string | null } {
  switch (status) {
    case 400:
      return { type: "invalid_request_error", code: null };
    case 401:
      return { type: "invalid_request_error", code: "invalid_api_key" };
    case 403:
      return { type: "invalid_request_error", code: "unsupported_country_region_territory" };
    case 404:
      return { type: "invalid_request_error", code: "not_found" };
    case 429:
      return { type: "requests", code: "rate_limit_exceeded" };
    case 500:
      return { type: "server_error", code: null };
    case 502:
    case 503:
    case 504:
      return { type: "server_error", code: "service_unavailable" };
    default:
      return status >= 500 ? { type: "server_error", code: null } : { type: "invalid_request_error", code: null };
  }
}

/** Sends `{error: {message, type, param, code}}` with the given status. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  param: string | null = null,
  headers: OutgoingHttpHeaders = {},
): void {
  const { type, code } = classify(status);
  sendJson(res, status, { error: { message, type, param, code } }, headers);
}

/**
 * OpenAI's refusal of a model it does not serve: 404 `model_not_found`, worded as OpenAI words it,
 * so a client's typo fails in development as it would in production.
 */
export function sendModelNotFound(res: ServerResponse, model: string): void {
  const message = `The model \`${model}\` does not exist or you do not have access to it.`;
  sendJson(res, 404, { error: { message, type: "invalid_request_error", param: null, code: "model_not_found" } });
}

/**
 * Answers with the failure a request asked for through `sim_error`. `retryAfterMs`
 * (`sim_retry_after_ms`) sets the retry hints on any status; without it a 429 asks for 50 ms, short
 * enough to exercise client retries without slowing tests down.
 */
export function sendSimulatedError(res: ServerResponse, status: number, retryAfterMs?: number): void {
  const wait = retryAfterMs ?? (status === 429 ? 50 : undefined);
  // `retry-after-ms` is OpenAI's precise hint; `Retry-After` is whole seconds (HTTP).
  const headers: OutgoingHttpHeaders =
    wait === undefined
      ? {}
      : {
          "retry-after-ms": String(wait),
          "retry-after": String(retryAfterMs === undefined ? 0 : Math.ceil(wait / 1_000)),
        };
  sendError(res, status, `Simulated error: HTTP ${status} requested through sim_error.`, null, headers);
}

/** Turns a simulator bug into a visible 500 instead of a hung request or a crashed process. */
export function sendInternalError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) res.destroy();
  else sendError(res, 500, `Simulator failure: ${err instanceof Error ? err.message : String(err)}`);
}
