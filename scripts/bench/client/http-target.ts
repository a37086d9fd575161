/** One HTTP request a benchmark sends over and over. */
export interface HttpTarget {
  /** Short name used in logs and the JSON results ("direct", "service"). */
  name: string;
  url: string;
  method: "POST" | "GET";
  headers: Record<string, string>;
  body: string;
  /**
   * Checks a 2xx answer's body; returns why it is wrong, or null. Used by the pre-flight check
   * and the sequential latency loop (not under load, where parsing every body would slow the client).
   */
  checkBody(body: string): string | null;
  /**
   * Sent as this many identical requests at once, counted as one operation that ends with the
   * slowest answer (default 1). How "the same LLM calls without the service" looks for a swarm
   * whose agents call the LLM in parallel. Only the hrtime clients honour it, not autocannon.
   */
  fanOut?: number;
}

/** Parses an answer body as a JSON object for a `checkBody`; null when it is not one. */
export function parseJsonObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
