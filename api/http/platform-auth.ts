import type { Middleware } from "koa";
import type { DataSource } from "typeorm";
import { AuthenticationError } from "../../shared/errors";
import type { KeyOwnerCache } from "../auth/key-owner-cache";
import type { SessionTokens } from "../auth/session-tokens";
import { ensureSessionUser } from "../../shared/db/user-store";

/** Who is calling the platform API: the user, and the key when it came with one. */
export interface PlatformCaller {
  userId: string;
  apiKeyId: string | null;
  tier: string;
  via: "api_key" | "session";
}

export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1] : "";
}

/**
 * `Authorization: Bearer <API key>`, or a session token of the identity backend where
 * `sessions` is allowed (E7, E8, the pages). Puts the caller in `ctx.state.auth`; anything else
 * is the fixed 401.
 */
export function platformAuth(
  deps: { keys: KeyOwnerCache; ds: DataSource; sessions: SessionTokens },
  options: { sessions: boolean },
): Middleware {
  return async (ctx, next) => {
    const caller = await identify(deps, bearerToken(ctx.get("authorization")), options.sessions);
    if (!caller) throw new AuthenticationError();
    ctx.state.auth = caller;
    ctx.state.logger = ctx.state.logger?.child({ userId: caller.userId });
    await next();
  };
}

export async function identify(
  deps: { keys: KeyOwnerCache; ds: DataSource; sessions: SessionTokens },
  token: string,
  allowSessions: boolean,
): Promise<PlatformCaller | null> {
  if (!token) return null;
  const owner = await deps.keys.find(token);
  if (owner) return { userId: owner.userId, apiKeyId: owner.apiKeyId, tier: owner.tier, via: "api_key" };
  if (!allowSessions) return null;
  const userId = await deps.sessions.userId(token);
  if (!userId) return null;
  await ensureSessionUser(deps.ds, userId);
  return { userId, apiKeyId: null, tier: "free", via: "session" };
}
