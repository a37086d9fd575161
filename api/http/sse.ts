import type { Context } from "koa";
import { config } from "../../shared/config";
import type { Frame, FrameStream } from "../reply";

/** An open Server-Sent Events response. */
interface SseStream {
  /**
   * An `event: <name>` frame with JSON data; without a name, a bare `data:` frame. False when the
   * socket's buffer is full: wait for `drained` before sending more.
   */
  send(frame: Frame): boolean;
  /** Resolves once the socket takes writes again (or the stream closed). */
  drained(): Promise<void>;
  readonly closed: boolean;
  close(): void;
}

/**
 * Takes over the Koa response for Server-Sent Events. Written by hand rather than with an SSE
 * library because clients of the hosted API match the frames byte for byte (`event: x` and
 * `data: {...}` with a space after the colon, JSON on one line); libraries write `data:{...}`.
 */
function openSse(ctx: Context): SseStream {
  ctx.respond = false; // this stream writes the response itself
  const res = ctx.res;
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no", // proxies must not buffer the stream
    ...Object.fromEntries(Object.entries(ctx.response.headers).map(([k, v]) => [k, String(v)])),
  });
  res.flushHeaders();
  let closed = false;
  // A comment frame after every `HEARTBEAT_MS` with nothing sent, so proxies that cut idle
  // connections do not cut a stream whose run is thinking; clients ignore comments.
  let sentAt = Date.now();
  const heartbeatMs = config.http.heartbeatMs;
  const heartbeat = setInterval(
    () => {
      if (closed || Date.now() - sentAt < heartbeatMs) return;
      sentAt = Date.now();
      res.write(": ping\n\n");
    },
    Math.max(10, Math.floor(heartbeatMs / 4)),
  );
  const end = () => {
    closed = true;
    clearInterval(heartbeat);
  };
  res.once("close", end);
  return {
    send({ data, event, raw, id }) {
      if (closed) return true;
      sentAt = Date.now();
      // JSON.stringify never emits a raw newline, so one data line always holds the whole payload;
      // a raw frame's marker is one line by definition.
      const payload = raw ? String(data) : JSON.stringify(data);
      // Ids are ours (a job id and numbers), never holding a newline.
      return res.write(`${id ? `id: ${id}\n` : ""}${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
    },
    drained() {
      return new Promise<void>((resolve) => {
        if (closed) return resolve();
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.once("drain", done);
        res.once("close", done);
      });
    },
    get closed() {
      return closed;
    },
    close() {
      if (closed) return;
      end();
      res.end();
    },
  };
}

/**
 * Streams a use case's frames as Server-Sent Events until they end. A client that goes away
 * aborts the frames' signal, which stops them (not the work behind them). A client that reads
 * slowly is not sent frames faster than its socket takes them: the next frame is asked for only
 * once the socket drained, so the process never buffers a run's events for it without limit.
 */
export async function writeSse(ctx: Context, frames: FrameStream): Promise<void> {
  const sse = openSse(ctx);
  const stop = new AbortController();
  ctx.res.once("close", () => stop.abort());
  try {
    for await (const frame of frames(stop.signal)) {
      if (sse.closed) break;
      if (!sse.send(frame)) await sse.drained();
    }
  } finally {
    sse.close();
  }
}
