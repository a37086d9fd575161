import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { redactSecrets } from "./mcp-redact";

/**
 * An MCP server of the agent could not be connected to or its tools could not be listed. The
 * message names the server (without credentials) and the reason, and is safe to show as the run's
 * error; it never contains the authorization token or header values.
 */
export class McpUnavailableError extends Error {
  constructor(
    /** The server's URL without user info or query string. */
    readonly serverUrl: string,
    /** Why, already free of secrets. */
    readonly reason: string,
  ) {
    super(`MCP server ${serverUrl} is unavailable: ${reason}`);
    this.name = "McpUnavailableError";
  }
}

/**
 * A short human reason for an error from the MCP SDK or fetch. The raw texts are vague
 * ("fetch failed", "MCP error -32001"), and the model or the caller needs to know what to do next.
 * `secrets` are redacted before the text is shortened, so a cut can never leave half a token.
 */
export function describeMcpError(error: unknown, timeoutMs: number, secrets: readonly string[]): string {
  const reason = redactSecrets(rawReason(error, timeoutMs), secrets);
  // HTTP errors embed the response body, which can be a whole HTML page.
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
}

const MAX_REASON = 300;

function rawReason(error: unknown, timeoutMs: number): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return `timed out after ${timeoutMs / 1000} s`;
  if (error instanceof UnauthorizedError) return "the server requires authorization (HTTP 401)";
  if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) {
    return `the server refused the authorization (HTTP ${error.code})`;
  }
  if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code > 0) {
    return `HTTP ${error.code}: ${error.message}`;
  }
  if (error instanceof Error) {
    // fetch reports "fetch failed" and hides the useful part (ECONNREFUSED, DNS) in `cause`.
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message && cause.message !== error.message ? ` (${cause.message})` : "";
    return `${error.message}${detail}`;
  }
  return String(error);
}
