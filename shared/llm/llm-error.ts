import type { CallConsumption } from "./call-consumption";

/** A provider call that failed for good (after retries, or at once for a permanent error). */
export class LlmCallError extends Error {
  /** What the call consumed before it failed, when it had streamed part of an answer. */
  consumed?: CallConsumption;
  /**
   * Whether the provider refused the call because it has no such model (404 `model_not_found`,
   * OpenAI's code, which gateways keep): the request's mistake, unlike a 404 for a wrong base URL.
   */
  modelNotFound = false;

  constructor(
    message: string,
    /** HTTP status from the provider, or null when no answer came (network, timeout). */
    readonly status: number | null,
    readonly provider: string,
    readonly model: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "LlmCallError";
  }
}

/** Removes anything that looks like a credential from a provider's error text. */
export function scrubSecrets(text: string): string {
  return text
    .replace(/\b(sk|pk|rk|gsk|xai|or)-[A-Za-z0-9_\-*]{6,}/g, "[redacted]")
    .replace(/Bearer\s+[A-Za-z0-9._-]+/gi, "Bearer [redacted]");
}
