import { createHash, randomBytes } from "node:crypto";
import { IsNull, type DataSource } from "typeorm";
import { config } from "../config";
import { AppError } from "../errors";
import { ApiKeyEntity, type ApiKey } from "../db/entities/api-key.entity";
import { UserEntity, type User } from "../db/entities/user.entity";
import { sql } from "../db/sql";

const KEY_FORMAT = /^sk-[0-9a-f]{64}$/;

/** A new API key: `sk-` and 64 hex characters from the operating system's CSPRNG. */
export function generateApiKey(): string {
  return `sk-${randomBytes(32).toString("hex")}`;
}

/** The stored form of a key; lookups go by this hash, the key itself is never kept. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_FORMAT.test(value);
}

/** The user with this handle, created when missing (idempotent). */
export async function ensureUser(ds: DataSource, handle: string): Promise<User> {
  await ds.query(`INSERT INTO users (handle) VALUES ($1) ON CONFLICT (handle) DO NOTHING`, [handle]);
  return ds.getRepository(UserEntity).findOneByOrFail({ handle });
}

/** The account already has as many active keys as it may. */
export class ApiKeyLimitError extends AppError {
  constructor(readonly maxKeys: number) {
    super(409, "API_KEY_LIMIT", `An account may have at most ${maxKeys} active API keys; revoke one to create another`);
  }
}

/**
 * Creates a key for a user and returns it in full: the only time it is ever visible. Refused with
 * `ApiKeyLimitError` when the user already has `maxKeys` active keys: limits also hold per account,
 * but a cap keeps one account from spreading its traffic over any number of keys. The user's row
 * is locked while the keys are counted, so concurrent creations cannot both take the last place.
 */
export async function createApiKey(
  ds: DataSource,
  userId: string,
  name: string,
  tier = "free",
  maxKeys = config.accountLimits.maxKeys,
): Promise<{ key: string; record: ApiKey }> {
  const key = generateApiKey();
  const record = await ds.transaction(async (manager) => {
    await manager.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [userId]);
    const [{ active }] = await manager.query(
      `SELECT count(*)::int AS active FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    );
    if (active >= maxKeys) throw new ApiKeyLimitError(maxKeys);
    return manager
      .getRepository(ApiKeyEntity)
      .save({ user_id: userId, name, key_hash: hashApiKey(key), last4: key.slice(-4), tier, revoked_at: null });
  });
  return { key, record };
}

/** The identity behind a key that is valid and not revoked. */
export interface KeyOwner {
  apiKeyId: string;
  userId: string;
  tier: string;
}

/** Looks a presented key up by its hash; null for unknown, revoked or malformed keys. */
export async function findKeyOwner(ds: DataSource, presented: string): Promise<KeyOwner | null> {
  if (!looksLikeApiKey(presented)) return null;
  const rows = await sql<{ id: string; user_id: string; tier: string }>(
    ds,
    `SELECT id, user_id, tier FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [hashApiKey(presented)],
  );
  const row = rows[0];
  return row ? { apiKeyId: row.id, userId: row.user_id, tier: row.tier } : null;
}

/** Keys of a user (or of everyone), without their hashes. */
export async function listApiKeys(
  ds: DataSource,
  userId?: string,
): Promise<(Omit<ApiKey, "key_hash"> & { handle: string })[]> {
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
