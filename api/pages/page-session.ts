import type { Context, Middleware } from "koa";
import { bearerToken } from "../http/auth";
import type { SessionTokens } from "../auth/session-tokens";
import { clearSessionCookie, SESSION_COOKIE } from "./cookies";

/** Who is looking at a page: a user signed in with a session token of the identity backend. */
export interface PageViewer {
  userId: string;
  /** The session token itself; form tokens (CSRF) are derived from it. */
  token: string;
  /** A cookie is sent by the browser on its own, so only cookie sessions need form tokens. */
  via: "cookie" | "header";
}

export function viewerOf(ctx: Context): PageViewer | null {
  return (ctx.state.viewer as PageViewer | undefined) ?? null;
}

/**
 * Puts the signed-in user, if any, in `ctx.state.viewer`: from `Authorization: Bearer <session
 * token>`, else from the session cookie. Pages accept session tokens only, never API keys: a key
 * must not be able to mint or revoke other keys. A cookie that no longer verifies (expired) is
 * dropped.
 */
export function pageSession(sessions: SessionTokens): Middleware {
  return async (ctx, next) => {
    ctx.state.viewer = await findViewer(ctx, sessions);
    await next();
  };
}

async function findViewer(ctx: Context, sessions: SessionTokens): Promise<PageViewer | null> {
  const header = bearerToken(ctx.get("authorization"));
  if (header) {
    const userId = await sessions.userId(header);
    if (userId) return { userId, token: header, via: "header" };
  }
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  if (!cookie) return null;
  const userId = await sessions.userId(cookie);
  if (userId) return { userId, token: cookie, via: "cookie" };
  clearSessionCookie(ctx);
  return null;
}
