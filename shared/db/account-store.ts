import type { UserRole } from "./entities/user.entity";
import { sql, type Queryable } from "./sql";
import { isUniqueViolation } from "./unique-violation";

/** An account as sign-in reads it: the only place the password hash is read. */
export interface AccountCredentials {
  id: string;
  role: UserRole;
  email: string;
  password_hash: string | null;
}

/** Another account has this email already (whatever its case), or a user has it as handle. */
export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email exists already");
    this.name = "EmailTakenError";
  }
}

/**
 * A new account: its handle is its email in lower case (unique, as handles are), so the API-key
 * CLI's `--user` finds it too. Throws `EmailTakenError` when the email (or that handle) is taken.
 */
export async function insertAccount(
  db: Queryable,
  account: { email: string; passwordHash: string | null; role?: UserRole },
): Promise<string> {
  try {
    const [row] = await sql<{ id: string }>(
      db,
      `INSERT INTO users (handle, email, password_hash, role) VALUES (lower($1), $1, $2, $3) RETURNING id`,
      [account.email, account.passwordHash, account.role ?? "user"],
    );
    return row.id;
  } catch (err) {
    if (isUniqueViolation(err, "users_email_key") || isUniqueViolation(err, "users_handle_key")) {
      throw new EmailTakenError();
    }
    throw err;
  }
}

/** The account with this email, whatever its case; null when none. */
export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountCredentials | null> {
  const [row] = await sql<AccountCredentials>(
    db,
    `SELECT id, role, email, password_hash FROM users WHERE lower(email) = lower($1)`,
    [email],
  );
  return row ?? null;
}

/** The account's password hash; null when it has none (or no such account). */
export async function passwordHashOf(db: Queryable, userId: string): Promise<string | null> {
  const [row] = await sql<{ password_hash: string | null }>(db, `SELECT password_hash FROM users WHERE id = $1`, [
    userId,
  ]);
  return row?.password_hash ?? null;
}

/** Stores a new password hash; false when there is no such account. */
export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<boolean> {
  const rows = await sql(db, `UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id`, [userId, passwordHash]);
  return rows.length > 0;
}

/**
 * Takes an account's password away (the column emptied): what was set by whoever signed up with an
 * email they never proved theirs stops opening it.
 */
export async function forgetPassword(db: Queryable, userId: string): Promise<void> {
  await sql(db, `UPDATE users SET password_hash = NULL WHERE id = $1`, [userId]);
}
