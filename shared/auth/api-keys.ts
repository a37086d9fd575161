import { createHash, randomBytes } from "node:crypto";
import type { DataSource } from "typeorm";
import { config } from "../config";
import { AppError } from "../errors";
import type { ApiKey } from "../db/entities/api-key.entity";
import { findActiveKeyByHash, insertApiKeyWithinLimit } from "../db/api-key-store";

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

/** The account already has as many active keys as it may. */
export class ApiKeyLimitError extends AppError {
  constructor(readonly maxKeys: number) {
    super(409, "API_KEY_LIMIT", `An account may have at most ${maxKeys} active API keys; revoke one to create another`);
  }
}

/**
 * Creates a key for a user and returns it in full: the only time it is ever visible. Refused with
 * `ApiKeyLimitError` when the user already has `maxKeys` active keys: limits also hold per account,
 * but a cap keeps one account from spreading its traffic over any number of keys.
 */
export async function createApiKey(
  ds: DataSource,
  userId: string,
  name: string,
  tier = "free",
  maxKeys = config.accountLimits.maxKeys,
): Promise<{ key: string; record: ApiKey }> {
  const key = generateApiKey();
  const record = await insertApiKeyWithinLimit(
    ds,
    { user_id: userId, name, key_hash: hashApiKey(key), last4: key.slice(-4), tier },
    maxKeys,
  );
  if (!record) throw new ApiKeyLimitError(maxKeys);
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
  const row = await findActiveKeyByHash(ds, hashApiKey(presented));
  return row ? { apiKeyId: row.id, userId: row.user_id, tier: row.tier } : null;
}
