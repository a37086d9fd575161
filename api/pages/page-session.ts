import type { Context, Middleware } from "koa";
import type { UserRole } from "../../shared/db/entities/user.entity";
import { moderates, roleOf } from "../../shared/db/user-store";
import { bearerToken } from "../http/auth";
import type { SessionTokens } from "../auth/session-tokens";
import { clearSessionCookie, SESSION_COOKIE } from "./cookies";

/**
 * Who is looking at a page: an account signed in here (an Apiary session), or a user signed in
 * with a session token of the identity backend.
 */
export interface PageViewer {
  userId: string;
  /** The session's token itself; form tokens (CSRF) are derived from it. */
  token: string;
  /** A cookie is sent by the browser on its own, so only cookie sessions need form tokens. */
  via: "cookie" | "header";
  /** `account`: a session of an account kept here (it has an email, maybe a password); `identity`: the identity backend's token. */
  kind: "account" | "identity";
  /** What the pages call the viewer: an account's email (else its handle); the identity backend's user id. */
  name: string;
  role: UserRole;
}

export function viewerOf(ctx: Context): PageViewer | null {
  return (ctx.state.viewer as PageViewer | undefined) ?? null;
}

/** Whether the viewer may moderate (moderators and admins). */
export function isModeratorViewer(viewer: PageViewer | null): boolean {
  return moderates(viewer?.role);
}

/**
 * Puts the signed-in user, if any, in `ctx.state.viewer`: from `Authorization: Bearer <session
 * token>`, else from the session cookie. Either kind of session is accepted: an Apiary session
 * token (opaque, looked up by its hash) or the identity backend's JWT. Pages accept sessions only,
 * never API keys: a key must not be able to mint or revoke other keys. A cookie that no longer
 * opens a session (expired, signed out) is dropped.
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
    const viewer = await viewerOfToken(sessions, header, "header");
    if (viewer) return viewer;
  }
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  if (!cookie) return null;
  const viewer = await viewerOfToken(sessions, cookie, "cookie");
  if (viewer) return viewer;
  clearSessionCookie(ctx);
  return null;
}

/** The viewer a session token speaks for, of either kind; null when it opens no session. */
export async function viewerOfToken(
  sessions: SessionTokens,
  token: string,
  via: PageViewer["via"],
): Promise<PageViewer | null> {
  const account = await sessions.account(token);
  if (account) {
    const name = account.email ?? account.handle;
    return { userId: account.user_id, token, via, kind: "account", name, role: account.role };
  }
  const userId = await sessions.userId(token);
  if (!userId) return null;
  // The identity backend's user may not have a row yet (first sight creates it, on the first key).
  const row = sessions.database ? await roleOf(sessions.database, userId) : null;
  return { userId, token, via, kind: "identity", name: userId, role: row ?? "user" };
}
