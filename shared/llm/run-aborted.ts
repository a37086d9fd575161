import type { CallConsumption } from "./call-consumption";

/** The run's signal fired (cancellation, deadline or shutdown) while an LLM call was in flight. */
export class RunAbortedError extends Error {
  constructor(
    readonly reason: string,
    /** What the provider last answered, when the signal fired between retries of a failing call. */
    readonly lastFailure?: Error,
    /** What the call in flight had consumed when it was cut off (none when no call was in flight). */
    readonly consumed?: CallConsumption,
  ) {
    super(`Run aborted: ${reason}`);
    this.name = "RunAbortedError";
  }
}

/** The reason carried by an aborted signal, as text. */
export function abortReason(signal: AbortSignal): string {
  const reason = signal.reason as unknown;
  if (reason instanceof Error) return reason.message;
  return typeof reason === "string" ? reason : "aborted";
}
