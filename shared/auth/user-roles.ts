import type { DataSource } from "typeorm";
import { sql } from "../db/sql";

/** What a user may do beyond their own things: a moderator approves and rejects marketplace prompts. */
export const USER_ROLES = ["user", "moderator"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Sets a user's role (the operator grants and takes back moderation); false when no such user exists. */
export async function setUserRole(ds: DataSource, userId: string, role: UserRole): Promise<boolean> {
  const rows = await sql(ds, `UPDATE users SET role = $2 WHERE id = $1 RETURNING id`, [userId, role]);
  return rows.length > 0;
}

/** Whether the user is a moderator now: read on every call, so taking the role back takes effect at once. */
export async function isModerator(ds: DataSource, userId: string): Promise<boolean> {
  const rows = await sql<{ role: string }>(ds, `SELECT role FROM users WHERE id = $1`, [userId]);
  return rows[0]?.role === "moderator";
}
