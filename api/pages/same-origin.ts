import type { Context, Middleware } from "koa";
import { config } from "../../shared/config";
import { renderMessage } from "./render";

/** The origins this site's own pages post from: the configured public address, and the one the browser used. */
function ownOrigins(ctx: Context): string[] {
  // Not ctx.origin: in Koa 3 that is the request's Origin header itself.
  return [new URL(config.http.platformUrl).origin, `${ctx.protocol}://${ctx.host}`];
}

/**
 * Whether a state-changing request comes from this site's own pages, as the browser tells it:
 * `Sec-Fetch-Site` (every current browser sends it and no page can forge it) must be
 * `same-origin`; a browser without it is held to `Origin`. A request with neither is not a
 * browser's form (scripts, curl): the session in its header or the form token decides.
 */
function isSameOriginRequest(ctx: Context): boolean {
  const site = ctx.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = ctx.get("origin");
  if (origin) return ownOrigins(ctx).includes(origin);
  return true;
}

/** Refuses (403) a state-changing page request another site made the browser send. */
export function sameOriginOnly(): Middleware {
  return async (ctx, next) => {
    if (!isSameOriginRequest(ctx)) {
      return renderMessage(
        ctx,
        403,
        "Form refused",
        "This form was sent from another site. Open the page on this site and submit it there.",
      );
    }
    await next();
  };
}
