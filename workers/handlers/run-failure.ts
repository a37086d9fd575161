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

// How deep a chain of `cause`s is searched (a swarm's failed turn wraps its agent's call error).
const MAX_CAUSE_DEPTH = 5;

/**
 * The provider call of `err`'s chain that the provider refused because it has no such model (HTTP
 * 404 `model_not_found`): the request named a model that does not exist there.
 */
function unknownModelCall(err: unknown): LlmCallError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < MAX_CAUSE_DEPTH; e = e.cause, depth++) {
    if (e instanceof LlmCallError) return e.modelNotFound ? e : undefined;
  }
  return undefined;
}

/**
 * The client-safe error object stored on a failed run. A model its provider does not have is the
 * request's mistake, stored as `UNKNOWN_MODEL` naming the model (answered as the 4xx a model
 * refused before queueing gets), whichever agent's call it failed.
 */
export function runErrorOf(
  err: LlmCallError | AppError | McpUnavailableError,
  agent?: string,
): { message: string; code: string; agent?: string } {
  const missing = unknownModelCall(err);
  if (missing)
    return {
      message: `Unknown model '${missing.model}': ${missing.provider} does not serve it (${missing.message})`,
      code: "UNKNOWN_MODEL",
      ...(agent ? { agent } : {}),
    };
  const code = err instanceof LlmCallError ? "LLM_CALL_FAILED" : err.code;
  return { message: err.message, code, ...(agent ? { agent } : {}) };
}
