import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

/** Sends a JSON body with an explicit length, which lets keep-alive connections be reused at once. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
  });
  res.end(payload);
}

/**
 * Collects a request body as UTF-8 text (the decoder handles characters split across chunks).
 * Calls back with `undefined` when the body exceeds `limit` bytes or the client goes away.
 */
export function readBody(req: IncomingMessage, limit: number, done: (text: string | undefined) => void): void {
  let text = "";
  let bytes = 0;
  let finished = false;
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    if (finished) return;
    bytes += Buffer.byteLength(chunk);
    if (bytes > limit) {
      finished = true;
      done(undefined);
      return;
    }
    text += chunk;
  });
  req.on("end", () => {
    if (finished) return;
    finished = true;
    done(text);
  });
  req.on("error", () => {
    if (finished) return;
    finished = true;
    done(undefined);
  });
}
