import { AppError } from "../../shared/errors";
import { LlmCallError } from "../../shared/llm/llm-error";

/**
 * Whether an error means the run itself failed (its input or the LLM provider), as opposed to our
 * own infrastructure (database, Redis) failing, which a job retry may cure.
 */
export function isRunFailure(err: unknown): err is LlmCallError | AppError {
  return err instanceof LlmCallError || err instanceof AppError;
}

/** The client-safe error object stored on a failed run. */
export function runErrorOf(err: LlmCallError | AppError, agent?: string): { message: string; code: string; agent?: string } {
  const code = err instanceof LlmCallError ? "LLM_CALL_FAILED" : err.code;
  return { message: err.message, code, ...(agent ? { agent } : {}) };
}
