import { EntitySchema } from "typeorm";

/**
 * What a user may do beyond their own things: a moderator approves and rejects marketplace
 * prompts; an admin may do all a moderator may, and also makes invites and sets roles.
 */
export const USER_ROLES = ["user", "moderator", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface User {
  id: string;
  handle: string;
  role: UserRole;
  /** An account's email (unique whatever its case); null for users of the identity backend or API keys only. */
  email: string | null;
  /** `scrypt$…` (shared/auth/passwords.ts); null when the account has no password. */
  password_hash: string | null;
  created_at: Date;
}

/** A person or organisation that owns API keys, runs and marketplace items. */
export const UserEntity = new EntitySchema<User>({
  name: "User",
  tableName: "users",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    handle: { type: "text", unique: true },
    role: { type: "text", default: "user" },
    email: { type: "text", nullable: true },
    password_hash: { type: "text", nullable: true },
    created_at: { type: "timestamptz", createDate: true },
  },
});
