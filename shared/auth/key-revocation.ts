import type { RedisClient } from "../queues/redis";
import type { DataSource } from "typeorm";
import { announceKeyRevoked } from "../queues/run-notices";
import { revokeApiKey } from "../db/api-key-store";

/** How long a revocation waits for Redis to take the announcement before it gives up on it. */
const ANNOUNCE_WAIT_MS = 2_000;

/**
 * Revokes a key and tells every API process to drop it from its cache at once. The announcement is
 * best effort: the row is the record, and cached keys expire within 30 s anyway. False when no
 * active key has that id.
 */
export async function revokeAndAnnounce(ds: DataSource, redis: RedisClient, apiKeyId: string): Promise<boolean> {
  const revoked = await revokeApiKey(ds, apiKeyId);
  if (revoked) {
    const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, ANNOUNCE_WAIT_MS).unref());
    await Promise.race([announceKeyRevoked(redis, apiKeyId).catch(() => undefined), gaveUp]);
  }
  return revoked;
}
