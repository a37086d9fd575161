import { AppError } from "../../shared/errors";
import { LlmCallError } from "../../shared/llm/llm-error";
import { McpUnavailableError } from "../agents/mcp/mcp-errors";

/**
 * Whether an error means the run itself failed (its input, a tool server or the LLM provider), as
 * opposed to our own infrastructure (database, Redis) failing, which a job retry may cure.
 */
export function isRunFailure(err: unknown): err is LlmCallError | AppError | McpUnavailableError {
  return err instanceof LlmCallError || err instanceof AppError || err instanceof McpUnavailableError;
}

/** The client-safe error object stored on a failed run. */
export function runErrorOf(
  err: LlmCallError | AppError | McpUnavailableError,
  agent?: string,
): { message: string; code: string; agent?: string } {
  const code = err instanceof LlmCallError ? "LLM_CALL_FAILED" : err.code;
  return { message: err.message, code, ...(agent ? { agent } : {}) };
}
