import type { Context, Middleware } from "koa";
import { AppError } from "../../shared/errors";
import { asServiceUnavailable } from "../../shared/unavailable";
import type { RequestState } from "./state";

/** How one app writes its error bodies; `error-bodies.ts` holds the `/v1` and the platform one. */
export interface ErrorRenderer {
  /** The status and body this app answers an error of ours with. */
  render(err: AppError): { status: number; body: Record<string, unknown> };
  /** What an http-error of koa-body or the router (malformed JSON, too large) reads as in this app. */
  fromHttpError(status: number, message: string): AppError;
  /** The message of the bare 500 that stands for an error we did not make. */
  internalMessage: string;
}

/** An error from `http-errors` (koa-body, the router) that is the client's fault and safe to show. */
export interface ClientHttpError {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** Whether `err` is such an error: a 4xx status not marked unsafe to show (`expose: false`). */
export function isClientHttpError(err: unknown): err is ClientHttpError {
  if (typeof err !== "object" || err === null) return false;
  const { status, expose } = err as { status?: unknown; expose?: unknown };
  return typeof status === "number" && status >= 400 && status < 500 && expose !== false;
}

/**
 * The error to answer for `err`: the 503 it stands for when Postgres or Redis is unreachable
 * (logged as a warning: an outage, not a bug), otherwise `err` itself.
 */
function outageAs503(log: RequestState["logger"] | undefined, err: unknown): unknown {
  const unavailable = asServiceUnavailable(err);
  if (unavailable && unavailable !== err)
    log?.warn({ err: err instanceof Error ? err.message : String(err) }, unavailable.message);
  return unavailable ?? err;
}

/** The error a route that answered nothing stands for: 404, or the router's bodiless 405 (with `Allow`) or 501. */
function unanswered(ctx: Context): AppError | null {
  if (ctx.respond === false || (ctx.body !== undefined && ctx.body !== null)) return null;
  if (ctx.status === 404) return new AppError(404, "NOT_FOUND", `No route for ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405) {
    const allowed = ctx.response.get("allow");
    return new AppError(405, "METHOD_NOT_ALLOWED", `Method ${ctx.method} is not allowed here; allowed: ${allowed}`);
  }
  if (ctx.status === 501) return new AppError(501, "NOT_IMPLEMENTED", `Method ${ctx.method} is not implemented`);
  return null;
}

/** What a thrown error is answered as: ours, an outage's 503, the client's http-error, or a logged 500. */
function asOurError(ctx: Context, caught: unknown, renderer: ErrorRenderer): AppError {
  const err = outageAs503(ctx.state.logger, caught);
  if (err instanceof AppError) return err;
  if (isClientHttpError(err)) {
    if (err.headers) ctx.set(err.headers);
    return renderer.fromHttpError(err.status, err.message);
  }
  ctx.state.logger?.error({ err }, "unhandled error");
  return new AppError(500, "INTERNAL_ERROR", renderer.internalMessage, { request_id: ctx.state.requestId });
}

/**
 * The one try/catch of an app (Koa's error-handling pattern): every thrown error, and a route that
 * answered nothing, becomes the body `renderer` writes. Postgres or Redis being unreachable is a
 * 503 the client may retry; errors we did not make are logged in full and answered with a bare 500
 * and the request id. `renderers` may pick the renderer by request (the OpenAI-compatible paths
 * answer in OpenAI's shape).
 */
export function handleErrors(
  renderers: ErrorRenderer | ((ctx: Context) => ErrorRenderer),
): Middleware<Partial<RequestState>> {
  return async (ctx, next) => {
    const renderer = typeof renderers === "function" ? renderers(ctx) : renderers;
    let err: AppError | null;
    try {
      await next();
      err = unanswered(ctx);
    } catch (caught: unknown) {
      err = asOurError(ctx, caught, renderer);
    }
    if (!err) return;
    ctx.state.errorCode = err.code;
    ctx.state.errorReportsRun = typeof err.extra.job_id === "string";
    ctx.set(err.headers);
    const { status, body } = renderer.render(err);
    ctx.body = body;
    ctx.status = status; // after the body: assigning a body would otherwise turn an implicit 404 into 200
  };
}
