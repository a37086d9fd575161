import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";
import type { Logger } from "../../shared/logger";
import type { RequestState } from "./state";

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Gives each request an id (the caller's `X-Request-Id` when sane), a child logger carrying it,
 * and one log line when it ends. Headers are not logged, so keys cannot leak through here.
 */
export function requestLogger(root: Logger): Middleware<RequestState> {
  return async (ctx, next) => {
    const incoming = ctx.get("x-request-id");
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.logger = root.child({ reqId: requestId });
    ctx.set("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 };
      if (ctx.status >= 500) ctx.state.logger.error(line, "request");
      else ctx.state.logger.info(line, "request");
    }
  };
}
