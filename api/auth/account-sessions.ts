import { randomBytes } from "node:crypto";
import type { DataSource } from "typeorm";
import { tokenHash } from "../../shared/auth/invites";
import {
  deleteSession,
  deleteSessionsOf,
  findSessionAccount,
  insertSession,
  type SessionAccount,
} from "../../shared/db/account-session-store";

/** An Apiary session token: 32 random bytes, base64url (43 characters, no dots, so never taken for a JWT). */
const ACCOUNT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether a token has the shape of an Apiary session token (before asking Postgres). */
function looksLikeAccountToken(token: string): boolean {
  return ACCOUNT_TOKEN.test(token);
}

/**
 * Starts a session for an account: a new random token, stored only as its SHA-256 with its expiry.
 * The caller puts the token in the session cookie, its only copy.
 */
export async function startAccountSession(
  ds: DataSource,
  userId: string,
  maxAgeSeconds: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + maxAgeSeconds * 1000);
  await insertSession(ds, tokenHash(token), userId, expiresAt);
  return { token, expiresAt };
}

/** The account a live session token speaks for; null for anything else (unknown, expired, signed out). */
export async function accountOfSession(ds: DataSource, token: string): Promise<SessionAccount | null> {
  if (!looksLikeAccountToken(token)) return null;
  return findSessionAccount(ds, tokenHash(token));
}

/** Signs a session out: its row is deleted, so its token opens nothing from now on. */
export async function endAccountSession(ds: DataSource, token: string): Promise<void> {
  await deleteSession(ds, tokenHash(token));
}

/** Ends every session of the account except the one with `keepToken` (after a password change). */
export async function endOtherSessions(ds: DataSource, userId: string, keepToken: string | null): Promise<number> {
  return deleteSessionsOf(ds, userId, keepToken ? tokenHash(keepToken) : null);
}
