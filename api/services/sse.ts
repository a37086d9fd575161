import { createSession, type Session } from "better-sse";
import type { Context } from "koa";

/** An open Server-Sent Events response. */
export interface SseStream {
  /** An `event: <name>` frame with JSON data; without a name, a bare `data:` frame. */
  send(data: unknown, event?: string): void;
  readonly closed: boolean;
  close(): void;
}

/**
 * Takes over the Koa response for Server-Sent Events (through better-sse: headers, keep-alive
 * comments, data sanitising). The request's own id header is kept for tracing.
 */
export async function openSse(ctx: Context): Promise<SseStream> {
  ctx.respond = false; // the session writes the response itself
  const session: Session = await createSession(ctx.req, ctx.res, {
    keepAlive: 15_000,
    retry: null,
    headers: { "X-Request-Id": String(ctx.state.requestId ?? ""), "X-Accel-Buffering": "no" },
  });
  let closed = false;
  session.once("disconnected", () => (closed = true));
  return {
    send(data, event) {
      if (closed) return;
      session.batch((buffer) => {
        if (event) buffer.event(event);
        buffer.data(data).dispatch();
      });
    },
    get closed() {
      return closed;
    },
    close() {
      if (!closed) ctx.res.end();
      closed = true;
    },
  };
}
