import { timingSafeEqual, createHash } from "node:crypto";
import auth from "basic-auth";
import type { Context, Middleware } from "koa";
import { v1ErrorBody } from "./error-bodies";

function sameSecret(a: string, b: string): boolean {
  // Compare digests so the comparison takes the same time whatever the lengths.
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** The operator's credentials; no password means the surface is closed, never open. */
export interface OperatorCredentials {
  user: string;
  password: string | undefined;
}

/** Whether `ctx` asks for a path under `guarded` (lower case), in any letter case. */
export function isUnder(ctx: Context, guarded: string): boolean {
  const path = ctx.path.toLowerCase();
  return path === guarded || path.startsWith(`${guarded}/`);
}

/**
 * HTTP basic authentication for every path under `prefix` (Bull Board has none of its own), in
 * any letter case: a router behind the guard may match paths without regard to case. With no
 * password configured every request is refused (403, naming `ADMIN_PASSWORD`): there is no
 * default password to fall back on.
 */
export function basicAuth(prefix: string, credentials: OperatorCredentials): Middleware {
  const guarded = prefix.toLowerCase();
  return async (ctx, next) => {
    if (!isUnder(ctx, guarded)) return next();
    const { user, password } = credentials;
    if (password === undefined) {
      ctx.status = 403;
      ctx.body = v1ErrorBody(
        403,
        "Bull Board is closed: no operator password is configured. Set ADMIN_PASSWORD (and ADMIN_USER) to open it.",
        "ADMIN_CLOSED",
      );
      return;
    }
    const given = auth(ctx.req);
    const userOk = given ? sameSecret(given.name, user) : false;
    const passwordOk = given ? sameSecret(given.pass, password) : false;
    if (!userOk || !passwordOk) {
      ctx.status = 401;
      ctx.set("WWW-Authenticate", 'Basic realm="apiary-admin", charset="UTF-8"');
      ctx.body = v1ErrorBody(401, "Admin credentials required", "AUTHENTICATION_FAILED");
      return;
    }
    return next();
  };
}
