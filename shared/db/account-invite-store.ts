import { sql, type Queryable } from "./sql";

/** Stores an invite by its token's hash (the link holds the only copy of the token). */
export async function insertInvite(
  db: Queryable,
  tokenHash: string,
  createdBy: string | null,
  expiresAt: Date,
): Promise<void> {
  await sql(db, `INSERT INTO account_invites (token_hash, created_by, expires_at) VALUES ($1, $2, $3)`, [
    tokenHash,
    createdBy,
    expiresAt,
  ]);
}

/** Whether an invite is there, unused and unexpired (the sign-up page checks before showing its form). */
export async function isInviteOpen(db: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await sql(
    db,
    `SELECT 1 FROM account_invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`,
    [tokenHash],
  );
  return rows.length > 0;
}

/** Uses an invite up for the new account, atomically: false when it is unknown, used or expired. */
export async function useInvite(db: Queryable, tokenHash: string, userId: string): Promise<boolean> {
  const rows = await sql(
    db,
    `UPDATE account_invites SET used_at = now(), used_by = $2
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING token_hash`,
    [tokenHash, userId],
  );
  return rows.length > 0;
}
