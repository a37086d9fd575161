import type { RedisClient } from "../../shared/queues/redis";
import type { DataSource } from "typeorm";
import { createApiKey } from "../../shared/auth/api-keys";
import { listApiKeys } from "../../shared/db/api-key-store";
import { revokeAndAnnounce } from "../../shared/auth/key-revocation";
import { ensureSessionUser } from "../../shared/db/user-store";
import { isUuid } from "../../shared/db/uuid";

/** A key as the API-keys page lists it: never its hash, never the key itself. */
export interface ListedKey {
  id: string;
  name: string;
  last4: string;
  tier: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** The user's keys, newest first. */
export async function keysOf(ds: DataSource, userId: string): Promise<ListedKey[]> {
  const keys = await listApiKeys(ds, userId);
  return keys
    .map(({ id, name, last4, tier, created_at, revoked_at }) => ({ id, name, last4, tier, created_at, revoked_at }))
    .reverse();
}

/**
 * Creates a `free` key for a signed-in user (tiers are granted by operators, not chosen here) and
 * returns it in full: the caller shows it once and keeps it nowhere.
 */
export async function createKeyFor(ds: DataSource, userId: string, name: string): Promise<{ id: string; key: string }> {
  await ensureSessionUser(ds, userId);
  const { key, record } = await createApiKey(ds, userId, name, "free");
  return { id: record.id, key };
}

/** Whether the user has an active key with this id. */
async function ownsActiveKey(ds: DataSource, userId: string, keyId: string): Promise<boolean> {
  if (!isUuid(keyId)) return false;
  return (await listApiKeys(ds, userId)).some((k) => k.id === keyId && !k.revoked_at);
}

/**
 * Revokes one of the user's keys and announces it, so the execution API refuses it at once.
 * False when the user has no active key with that id (another user's key counts as none).
 */
export async function revokeKeyOf(ds: DataSource, redis: RedisClient, userId: string, keyId: string): Promise<boolean> {
  if (!(await ownsActiveKey(ds, userId, keyId))) return false;
  return revokeAndAnnounce(ds, redis, keyId);
}
