import { EntitySchema } from "typeorm";

export interface ApiKey {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  /** Last four characters, so people can tell their keys apart. */
  last4: string;
  tier: string;
  created_at: Date;
  revoked_at: Date | null;
}

export const ApiKeyEntity = new EntitySchema<ApiKey>({
  name: "ApiKey",
  tableName: "api_keys",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    user_id: { type: "uuid" },
    name: { type: "text" },
    key_hash: { type: "char", length: 64, unique: true },
    last4: { type: "text" },
    tier: { type: "text", default: "free" },
    created_at: { type: "timestamptz", createDate: true },
    revoked_at: { type: "timestamptz", nullable: true },
  },
});
