/** A JSON answer and how long it took, from sending the request to the last byte. */
export interface TimedAnswer {
  status: number;
  /** The parsed body, or undefined when it was not JSON (then see `text`). */
  json: unknown;
  text: string;
  ms: number;
}

/**
 * Sends one request with an optional JSON body and times it with `performance.now()`. `fetch` is
 * fine here: the scenarios using this measure hundreds of ms, where its ~0.3 ms cost is noise
 * (the agent completion's sub-ms figures use `closed-loop.ts` instead).
 */
export async function jsonRequest(
  method: "GET" | "POST" | "DELETE",
  url: string,
  opts: { apiKey?: string; body?: unknown; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<TimedAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.apiKey) headers["x-api-key"] = opts.apiKey;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, ms };
}
