import { EntitySchema } from "typeorm";

export interface User {
  id: string;
  handle: string;
  created_at: Date;
}

/** A person or organisation that owns API keys, runs and marketplace items. */
export const UserEntity = new EntitySchema<User>({
  name: "User",
  tableName: "users",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    handle: { type: "text", unique: true },
    created_at: { type: "timestamptz", createDate: true },
  },
});
