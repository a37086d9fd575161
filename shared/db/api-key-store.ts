import type { DataSource } from "typeorm";
import type { ApiKey } from "./entities/api-key.entity";
import { sql, transaction } from "./sql";

/** A key to store: everything but what the database fills in. */
export type NewApiKey = Pick<ApiKey, "user_id" | "name" | "key_hash" | "last4" | "tier">;

/** A key as listed: its owner's handle, never its hash. */
export type ListedApiKey = Omit<ApiKey, "key_hash"> & { handle: string };

/**
 * Stores a key unless its user already has `maxKeys` active keys (then null). The user's row is
 * locked while the keys are counted, so concurrent creations cannot both take the last place.
 */
export async function insertApiKeyWithinLimit(ds: DataSource, key: NewApiKey, maxKeys: number): Promise<ApiKey | null> {
  return transaction(ds, async (tx) => {
    await sql(tx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [key.user_id]);
    const [{ active }] = await sql<{ active: number }>(
      tx,
      `SELECT count(*)::int AS active FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL`,
      [key.user_id],
    );
    if (active >= maxKeys) return null;
    const [stored] = await sql<ApiKey>(
      tx,
      `INSERT INTO api_keys (user_id, name, key_hash, last4, tier) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [key.user_id, key.name, key.key_hash, key.last4, key.tier],
    );
    return stored;
  });
}

/** The active (not revoked) key with this hash, or null. */
export async function findActiveKeyByHash(
  ds: DataSource,
  keyHash: string,
): Promise<Pick<ApiKey, "id" | "user_id" | "tier"> | null> {
  const rows = await sql<Pick<ApiKey, "id" | "user_id" | "tier">>(
    ds,
    `SELECT id, user_id, tier FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [keyHash],
  );
  return rows[0] ?? null;
}

/** Keys of a user (or of everyone), oldest first, without their hashes. */
export async function listApiKeys(ds: DataSource, userId?: string): Promise<ListedApiKey[]> {
  return sql(
    ds,
    `SELECT k.id, k.user_id, u.handle, k.name, k.last4, k.tier, k.created_at, k.revoked_at
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE $1::uuid IS NULL OR k.user_id = $1::uuid ORDER BY k.created_at`,
    [userId ?? null],
  );
}

/** Revokes a key; false when no active key has that id. */
export async function revokeApiKey(ds: DataSource, id: string): Promise<boolean> {
  const rows = await sql(
    ds,
    `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING 1`,
    [id],
  );
  return rows.length > 0;
}
