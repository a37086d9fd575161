import { sql, type Queryable } from "./sql";

/** An OpenID Connect provider's name for a person: its issuer and the subject it gives them. */
export interface IdentityKey {
  issuer: string;
  subject: string;
}

/** The account an identity is linked to; null when it is linked to none. */
export async function linkedAccount(db: Queryable, identity: IdentityKey): Promise<string | null> {
  const [row] = await sql<{ user_id: string }>(
    db,
    `SELECT user_id FROM account_identities WHERE issuer = $1 AND subject = $2`,
    [identity.issuer, identity.subject],
  );
  return row?.user_id ?? null;
}

/**
 * Links an identity to an account. Throws a unique violation of `account_identities_pkey` when the
 * identity is linked already (another sign-in of the same person got there first).
 */
export async function linkIdentity(db: Queryable, identity: IdentityKey, userId: string): Promise<void> {
  await sql(db, `INSERT INTO account_identities (issuer, subject, user_id) VALUES ($1, $2, $3)`, [
    identity.issuer,
    identity.subject,
    userId,
  ]);
}
