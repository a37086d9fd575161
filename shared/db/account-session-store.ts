import type { UserRole } from "./entities/user.entity";
import { sql, type Queryable } from "./sql";

/** Who a live session is: what the pages show and check. */
export interface SessionAccount {
  user_id: string;
  role: UserRole;
  handle: string;
  email: string | null;
  expires_at: Date;
}

/** Stores a session by its token's hash (the token itself is never stored). */
export async function insertSession(db: Queryable, tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
  await sql(db, `INSERT INTO account_sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
    tokenHash,
    userId,
    expiresAt,
  ]);
}

/** The account of a session not yet expired; null otherwise. */
export async function findSessionAccount(db: Queryable, tokenHash: string): Promise<SessionAccount | null> {
  const [row] = await sql<SessionAccount>(
    db,
    `SELECT s.user_id, u.role, u.handle, u.email, s.expires_at
       FROM account_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [tokenHash],
  );
  return row ?? null;
}

/** Ends one session (signing out). */
export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await sql(db, `DELETE FROM account_sessions WHERE token_hash = $1`, [tokenHash]);
}

/** Ends every session of an account but `keepHash` (the one that changed the password, if any); returns how many. */
export async function deleteSessionsOf(db: Queryable, userId: string, keepHash: string | null = null): Promise<number> {
  const rows = await sql(
    db,
    `DELETE FROM account_sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2 RETURNING user_id`,
    [userId, keepHash],
  );
  return rows.length;
}
