import type { DataSource } from "typeorm";
import type { User, UserRole } from "./entities/user.entity";
import { sql, type Queryable } from "./sql";

/** A user as the code reads one: never with the password hash, which only `account-store` reads. */
export type UserRecord = Omit<User, "password_hash">;

const USER_COLUMNS = "id, handle, role, email, created_at";

/** The user with this handle, created when missing (idempotent). */
export async function ensureUser(ds: DataSource, handle: string): Promise<UserRecord> {
  await sql(ds, `INSERT INTO users (handle) VALUES ($1) ON CONFLICT (handle) DO NOTHING`, [handle]);
  const [user] = await sql<UserRecord>(ds, `SELECT ${USER_COLUMNS} FROM users WHERE handle = $1`, [handle]);
  return user;
}

/** Makes sure a user signed in through the identity backend exists here (first sight creates it). */
export async function ensureSessionUser(ds: DataSource, userId: string): Promise<void> {
  await sql(ds, `INSERT INTO users (id, handle) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [userId, `session-${userId}`]);
}

/** The user with this handle, or null; never creates one. */
export async function findUserByHandle(ds: DataSource, handle: string): Promise<UserRecord | null> {
  const [user] = await sql<UserRecord>(ds, `SELECT ${USER_COLUMNS} FROM users WHERE handle = $1`, [handle]);
  return user ?? null;
}

/** Sets a user's role (the operator grants and takes back moderation); false when no such user exists. */
export async function setUserRole(ds: DataSource, userId: string, role: UserRole): Promise<boolean> {
  const rows = await sql(ds, `UPDATE users SET role = $2 WHERE id = $1 RETURNING id`, [userId, role]);
  return rows.length > 0;
}

/** Whether a role holds a moderator's powers: a moderator's, and an admin's (who may do all a moderator may). */
export function moderates(role: string | undefined): boolean {
  return role === "moderator" || role === "admin";
}

/** Whether the user may moderate now: read on every call, so taking the role back takes effect at once. */
export async function isModerator(ds: DataSource, userId: string): Promise<boolean> {
  const rows = await sql<{ role: string }>(ds, `SELECT role FROM users WHERE id = $1`, [userId]);
  return moderates(rows[0]?.role);
}

/** The user's role; null when there is no such user. */
export async function roleOf(ds: Queryable, userId: string): Promise<UserRole | null> {
  const [row] = await sql<{ role: UserRole }>(ds, `SELECT role FROM users WHERE id = $1`, [userId]);
  return row?.role ?? null;
}
