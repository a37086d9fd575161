import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { EgressRefusedError } from "../../../shared/net/egress";
import type { AttributedFailure } from "../../../shared/failure-cause";
import { redactSecrets } from "./mcp-redact";

/**
 * An MCP server of the agent could not be connected to or its tools could not be listed. The
 * message names the server (without credentials) and the reason, and is safe to show as the run's
 * error; it never contains the authorization token, header values or anything the server answered.
 */
export class McpUnavailableError extends Error implements AttributedFailure {
  /** The server is the caller's: its being down or refusing is not the service's fault. */
  readonly failureCause = "caller";

  constructor(
    /** The server's URL without user info or query string. */
    readonly serverUrl: string,
    /** Why, already free of secrets. */
    readonly reason: string,
    /** The run error's code: `EGRESS_REFUSED` when the egress policy refused the server. */
    readonly code: "MCP_UNAVAILABLE" | "EGRESS_REFUSED" = "MCP_UNAVAILABLE",
  ) {
    super(`MCP server ${serverUrl} is unavailable: ${reason}`);
    this.name = "McpUnavailableError";
  }
}

/** The egress refusal behind `error`, however deep the SDK wrapped it. */
export function egressRefusalIn(error: unknown): EgressRefusedError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EgressRefusedError) return e;
  }
  return null;
}

/**
 * A short reason for an error from the MCP SDK or fetch: a status, a code and a category, never
 * a text the server sent. Whatever answered at the URL (an internal service, a cloud metadata
 * endpoint) must not be readable through run errors or tool results, and the SDK puts response
 * bodies in its errors (`Error POSTing to endpoint: <body>`, JSON parse errors quoting the body,
 * JSON-RPC error messages). `secrets` are redacted all the same, in case the URL's host holds one.
 */
export function describeMcpError(error: unknown, timeoutMs: number, secrets: readonly string[]): string {
  return redactSecrets(category(error, timeoutMs), secrets);
}

/** Errno-style code of a network failure (`ECONNREFUSED`, `ENOTFOUND`, a TLS code), here or in `cause`. */
function networkCode(error: unknown): string | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{1,60}$/.test(code)) return code;
  }
  return null;
}

function category(error: unknown, timeoutMs: number): string {
  const refusal = egressRefusalIn(error);
  if (refusal) return refusal.message;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return `timed out after ${timeoutMs / 1000} s`;
  if (error instanceof UnauthorizedError) return "the server requires authorization (HTTP 401)";
  if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) {
    return `the server refused the authorization (HTTP ${error.code})`;
  }
  if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code >= 300 && error.code < 400) {
    return `the server answered HTTP ${error.code}; a redirect to another origin is not followed`;
  }
  if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code > 0)
    return `the server answered HTTP ${error.code}`;
  if (error instanceof StreamableHTTPError) return "the server answered with a content type MCP does not use";
  // The JSON-RPC error's message is the server's text; its code is all that is passed on.
  if (error instanceof McpError) return `the server answered with MCP error ${error.code}`;
  if (error instanceof Error && error.name === "AbortError") return "the request was aborted";
  const code = networkCode(error);
  if (code) return `the server could not be reached (${code})`;
  if (error instanceof SyntaxError || (error instanceof Error && error.name === "ZodError"))
    return "the server's answer is not valid MCP";
  return "the request to the server failed";
}
