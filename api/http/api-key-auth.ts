import type { Middleware } from "koa";
import { AuthenticationError } from "../../shared/errors";
import type { KeyOwnerCache } from "../auth/key-owner-cache";

/** The key from `x-api-key`, or from `Authorization: Bearer <key>`. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string {
  const direct = headers["x-api-key"];
  if (typeof direct === "string" && direct.trim()) return direct.trim();
  const authorization = headers.authorization;
  if (typeof authorization === "string") {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1].trim();
  }
  return "";
}

/** Requires a valid API key and puts its owner in `ctx.state.auth`. */
export function apiKeyAuth(keys: KeyOwnerCache): Middleware {
  return async (ctx, next) => {
    const owner = await keys.find(presentedKey(ctx.headers));
    if (!owner) throw new AuthenticationError();
    ctx.state.auth = owner;
    ctx.state.logger = ctx.state.logger?.child({ keyId: owner.apiKeyId });
    await next();
  };
}
