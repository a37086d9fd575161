import { timingSafeEqual, createHash } from "node:crypto";
import auth from "basic-auth";
import type { Middleware } from "koa";
import { v1ErrorBody } from "./error-bodies";

function sameSecret(a: string, b: string): boolean {
  // Compare digests so the comparison takes the same time whatever the lengths.
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/**
 * HTTP basic authentication for every path under `prefix` (Bull Board has none of its own), in
 * any letter case: a router behind the guard may match paths without regard to case.
 */
export function basicAuth(prefix: string, user: string, password: string): Middleware {
  const guarded = prefix.toLowerCase();
  return async (ctx, next) => {
    const path = ctx.path.toLowerCase();
    if (path !== guarded && !path.startsWith(`${guarded}/`)) return next();
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
