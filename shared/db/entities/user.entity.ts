import { EntitySchema } from "typeorm";

/** What a user may do beyond their own things: a moderator approves and rejects marketplace prompts. */
export const USER_ROLES = ["user", "moderator"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface User {
  id: string;
  handle: string;
  role: UserRole;
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
    created_at: { type: "timestamptz", createDate: true },
  },
});
