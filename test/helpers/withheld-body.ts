import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface WithheldBodyRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** The `Content-Length` announced; unset sends the body chunked (no length known up front). */
  declaredBytes?: number;
  /** What is actually sent of the body before waiting for the answer. */
  firstBytes: Buffer | string;
  /** How long to wait for an answer while the rest of the body is held back. */
  withinMs?: number;
}

export interface EarlyAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): any;
}

/**
 * Sends a request's headers and the first bytes of its body, then holds the rest back and waits
 * for the answer. A server that answers did so without reading the body it was promised; one
 * that waits for the body never answers, and this rejects after `withinMs`.
 */
export function answerWhileBodyWithheld(baseUrl: string, options: WithheldBodyRequest): Promise<EarlyAnswer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.declaredBytes !== undefined) headers["content-length"] = String(options.declaredBytes);
  const withinMs = options.withinMs ?? 5_000;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${options.path}`, { method: options.method ?? "POST", headers, agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${withinMs} ms while the body was held back: the server waits to read it`));
    }, withinMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy(); // the rest of the body is never sent
        resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.write(options.firstBytes);
  });
}
