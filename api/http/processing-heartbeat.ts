import type { Context, Middleware } from "koa";
import { config } from "../../shared/config";

/**
 * Keeps a request that waits for its run (`holdsOpen`) from looking idle to the proxies in front of
 * the service before its answer's status is known: every `HEARTBEAT_MS` without an answer, an
 * informational `102 Processing` is written (Node's `writeProcessing`), which commits to no final
 * status. Once the answer's headers are sent (a stream's at once) it stops: a stream sends its own
 * `: ping` comments (`sse.ts`). HTTP clients skip 1xx responses (Node's `http`, undici, and so the
 * `openai` SDK and swarms-ts); which proxies relay them is in docs/streams.md.
 */
export function processingHeartbeat(holdsOpen: (ctx: Context) => boolean): Middleware {
  return async (ctx, next) => {
    // An HTTP/1.0 client does not know 1xx answers.
    if (!holdsOpen(ctx) || ctx.req.httpVersion === "1.0") return next();
    const timer = setInterval(() => {
      if (ctx.res.headersSent || ctx.res.writableEnded || ctx.res.destroyed) return clearInterval(timer);
      ctx.res.writeProcessing();
    }, config.http.heartbeatMs);
    try {
      await next();
    } finally {
      clearInterval(timer);
    }
  };
}
