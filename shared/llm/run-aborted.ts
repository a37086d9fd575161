/** The run's signal fired (cancellation, deadline or shutdown) while an LLM call was in flight. */
export class RunAbortedError extends Error {
  constructor(
    readonly reason: string,
    /** What the provider last answered, when the signal fired between retries of a failing call. */
    readonly lastFailure?: Error,
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
