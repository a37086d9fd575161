import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";
import { safeRequestId, withLogContext, type Logger } from "../../shared/logger";
import { answerCause } from "./answer-cause";
import type { RequestState } from "./state";

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is a short safe string), and one
 * log line when it ends. Every line written while the request runs carries the id (`reqId`), and
 * its run's id (`runId`) once the use case has stored the run (see `shared/logger`). An error
 * answer's line names its code and whose fault it is (`cause`): at `error` only for the service's
 * own, at `warn` for a failed run's answer, else at `info`. Headers are not logged, so keys cannot
 * leak through here.
 */
export function requestLogger(root: Logger): Middleware<RequestState> {
  return (ctx, next) => {
    const requestId = safeRequestId(ctx.get("x-request-id")) ?? randomUUID();
    return withLogContext({ reqId: requestId }, async () => {
      ctx.state.requestId = requestId;
      ctx.state.logger = root;
      ctx.set("X-Request-Id", requestId);
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const line = {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(ms * 100) / 100,
          // Which error was answered (`REQUEST_ABORTED`: the client left before sending its body).
          ...(ctx.state.errorCode ? { code: ctx.state.errorCode } : {}),
        };
        // Only the service's own faults are errors: an operator's error alert means "ours".
        const cause = answerCause(ctx);
        if (cause === "service") ctx.state.logger.error({ ...line, cause }, "request");
        else if (cause === "run") ctx.state.logger.warn({ ...line, cause }, "request");
        else ctx.state.logger.info(cause ? { ...line, cause } : line, "request");
      }
    });
  };
}
