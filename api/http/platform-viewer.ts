import type { Middleware } from "koa";
import type { DataSource } from "typeorm";
import { AuthenticationError } from "../../shared/errors";
import type { KeyOwnerCache } from "../auth/key-owner-cache";
import type { SessionTokens } from "../auth/session-tokens";
import { bearerToken, identify } from "./platform-auth";

/**
 * For endpoints anyone may call (E9): no `Authorization` header means an anonymous viewer
 * (`ctx.state.auth` stays unset); a header must carry a valid API key or session token, else the
 * fixed 401 — a caller who sends credentials wants to know they were refused.
 */
export function platformViewer(deps: { keys: KeyOwnerCache; ds: DataSource; sessions: SessionTokens }): Middleware {
  return async (ctx, next) => {
    if (ctx.get("authorization")) {
      const caller = await identify(deps, bearerToken(ctx.get("authorization")), true);
      if (!caller) throw new AuthenticationError();
      ctx.state.auth = caller;
    }
    await next();
  };
}
