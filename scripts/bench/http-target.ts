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
}
