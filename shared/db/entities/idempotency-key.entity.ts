import { EntitySchema } from "typeorm";

/**
 * One `Idempotency-Key` a client sent with a `/v1` POST, and the answer its first request got.
 * While the first request is still being answered, `response_status` is null.
 */
export interface IdempotencyKey {
  /** Changes whenever an expired or abandoned record is taken over, so a late owner cannot overwrite it. */
  id: string;
  api_key_id: string;
  key: string;
  /** SHA-256 hex of method, path and canonical JSON body. */
  request_hash: string;
  run_id: string | null;
  response_status: number | null;
  /** Stored as `json` (not `jsonb`) so a replay keeps the original's field order. */
  response_body: unknown;
  /** Headers the route set on the original answer (e.g. `Location` of a 202). */
  response_headers: Record<string, string> | null;
  created_at: Date;
}

export const IdempotencyKeyEntity = new EntitySchema<IdempotencyKey>({
  name: "IdempotencyKey",
  tableName: "idempotency_keys",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    api_key_id: { type: "uuid" },
    key: { type: "text" },
    request_hash: { type: "char", length: 64 },
    run_id: { type: "uuid", nullable: true },
    response_status: { type: "int", nullable: true },
    response_body: { type: "json", nullable: true },
    response_headers: { type: "jsonb", nullable: true },
    created_at: { type: "timestamptz", createDate: true },
  },
  uniques: [{ name: "idempotency_keys_api_key_id_key_key", columns: ["api_key_id", "key"] }],
});
