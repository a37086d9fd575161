import { Agent, request as httpRequest } from "node:http";

/** A request as it goes on the wire: the path is sent as given (no normalisation), headers may carry raw bytes. */
export interface RawRequest {
  method: string;
  /** Path and query, exactly as sent (`/v1/jobs/../..` stays as it is). */
  path: string;
  /** Header values are sent byte for byte as latin1 strings, so UTF-8 bytes can be smuggled in. */
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/** What came back instead of a response: the server hung up, or did not answer in time. */
class TransportFailure extends Error {}

/**
 * Sends one request with `node:http` rather than fetch, which would normalise the path, refuse
 * non-ASCII header values and always add a content type. A connection closed by the server after
 * it has answered (an oversized body cut short) still yields that answer.
 */
export function sendRaw(baseUrl: string, req: RawRequest, agent: Agent, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.body && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length"))
      headers["content-length"] = String(req.body.length);
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers,
        agent,
        insecureHTTPParser: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (err) => reject(new TransportFailure(`response failed: ${err.message}`)));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            ms: Date.now() - started,
          }),
        );
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new TransportFailure(`no answer within ${timeoutMs} ms`)));
    // The server may answer (413) and close while the body is still being written: that answer counts.
    outgoing.on("error", (err) =>
      reject(err instanceof TransportFailure ? err : new TransportFailure(`connection failed: ${err.message}`)),
    );
    if (req.body) outgoing.end(req.body);
    else outgoing.end();
  });
}

/** Runs `task` over `items` with at most `limit` in flight, keeping the results in order. */
export async function mapBounded<T, R>(
  items: T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}
