import type { Context } from "koa";
import type { DataSource } from "typeorm";
import { hashPassword, needsRehash, verifyPassword } from "../../shared/auth/passwords";
import { findAccountByEmail, setPasswordHash } from "../../shared/db/account-store";
import { endAccountSession, startAccountSession } from "../auth/account-sessions";
import type { SessionTokens } from "../auth/session-tokens";
import { SESSION_COOKIE, setSessionCookie } from "./cookies";

/** The one answer to a wrong email and a wrong password alike: it must not tell which emails have accounts. */
export const WRONG_CREDENTIALS = "That email and password do not match an account.";

/** The account an email and password open; null when either is wrong (or the account has no password). */
export async function checkPassword(ds: DataSource, email: string, password: string): Promise<string | null> {
  const account = await findAccountByEmail(ds, email);
  // Unknown emails are checked against a decoy hash: the same work, the same time, the same answer.
  const matches = await verifyPassword(password, account?.password_hash ?? null);
  if (!account || !matches) return null;
  // Hashes made with weaker parameters than today's are replaced while the password is at hand.
  if (needsRehash(account.password_hash!)) await setPasswordHash(ds, account.id, await hashPassword(password));
  return account.id;
}

/**
 * Signs the browser in to an account: a new Apiary session in the session cookie, replacing (and
 * ending, if it was one of ours) whatever session the browser had, so no session set before the
 * sign-in survives it.
 */
export async function signInAs(
  ctx: Context,
  deps: { ds: DataSource; sessions: SessionTokens },
  userId: string,
  maxAgeSeconds: number,
): Promise<void> {
  const earlier = ctx.cookies.get(SESSION_COOKIE);
  if (earlier) await endAccountSession(deps.ds, earlier);
  const { token, expiresAt } = await startAccountSession(deps.ds, userId, maxAgeSeconds);
  setSessionCookie(ctx, token, expiresAt);
}

/** 303: the browser follows with a GET, so reloading the result never re-submits the form. */
export function seeOther(ctx: Context, path: string): void {
  ctx.status = 303;
  ctx.redirect(path);
}
