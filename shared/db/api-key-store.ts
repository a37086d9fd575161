import { IsNull, type DataSource } from "typeorm";
import { ApiKeyEntity, type ApiKey } from "./entities/api-key.entity";
import { sql } from "./sql";

/** A key to store: everything but what the database fills in. */
export type NewApiKey = Pick<ApiKey, "user_id" | "name" | "key_hash" | "last4" | "tier">;

/** A key as listed: its owner's handle, never its hash. */
export type ListedApiKey = Omit<ApiKey, "key_hash"> & { handle: string };

/**
 * Stores a key unless its user already has `maxKeys` active keys (then null). The user's row is
 * locked while the keys are counted, so concurrent creations cannot both take the last place.
 */
export async function insertApiKeyWithinLimit(ds: DataSource, key: NewApiKey, maxKeys: number): Promise<ApiKey | null> {
  return ds.transaction(async (manager) => {
    await manager.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [key.user_id]);
    const [{ active }] = await manager.query(
      `SELECT count(*)::int AS active FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL`,
      [key.user_id],
    );
    if (active >= maxKeys) return null;
    return manager.getRepository(ApiKeyEntity).save({ ...key, revoked_at: null });
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
  return ds.query(
    `SELECT k.id, k.user_id, u.handle, k.name, k.last4, k.tier, k.created_at, k.revoked_at
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE $1::uuid IS NULL OR k.user_id = $1::uuid ORDER BY k.created_at`,
    [userId ?? null],
  );
}

/** Revokes a key; false when no active key has that id. */
export async function revokeApiKey(ds: DataSource, id: string): Promise<boolean> {
  const result = await ds.getRepository(ApiKeyEntity).update({ id, revoked_at: IsNull() }, { revoked_at: new Date() });
  return (result.affected ?? 0) > 0;
}
