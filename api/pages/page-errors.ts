import type { Middleware } from "koa";
import { renderMessage } from "./render";

/**
 * Errors of the page routes become HTML pages, not the platform API's JSON: a refused request
 * (an oversized or malformed form) shows its reason; anything unexpected is logged and shown as a
 * plain 500 page that says nothing about the cause.
 */
export function pageErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err: any) {
      const refused = typeof err?.status === "number" && err.status >= 400 && err.status < 500 && err.expose !== false;
      if (refused) return renderMessage(ctx, err.status, "Request refused", String(err.message));
      ctx.state.logger?.error({ err }, "page failed");
      renderMessage(
        ctx,
        500,
        "Something went wrong",
        "Something went wrong on our side. Please try again in a moment.",
      );
    }
  };
}
