import type { RedisClient } from "../../shared/queues/redis";
import type { DataSource } from "typeorm";
import { findKeyOwner, hashApiKey, type KeyOwner } from "../../shared/auth/api-keys";
import { keyRevokedChannel } from "../../shared/queues/run-notices";

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Remembers recently seen valid keys for a short while, so most requests skip the key lookup in
 * Postgres. A revocation is announced over Redis and drops the key from every API process at
 * once; a key revoked behind the service's back (plain SQL) stays usable here for at most 30 s.
 * Unknown keys are never cached: a new key works immediately.
 */
export class KeyOwnerCache {
  private readonly entries = new Map<string, { owner: KeyOwner; expires: number }>();

  constructor(private readonly ds: DataSource) {}

  async listenForRevocations(subscriber: RedisClient): Promise<void> {
    subscriber.on("message", (channel: string, apiKeyId: string) => {
      if (channel !== keyRevokedChannel()) return;
      for (const [hash, entry] of this.entries) if (entry.owner.apiKeyId === apiKeyId) this.entries.delete(hash);
    });
    await subscriber.subscribe(keyRevokedChannel());
  }

  async find(presented: string): Promise<KeyOwner | null> {
    if (!presented) return null;
    const hash = hashApiKey(presented);
    const hit = this.entries.get(hash);
    if (hit && hit.expires > Date.now()) return hit.owner;
    const owner = await findKeyOwner(this.ds, presented);
    if (owner) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { owner, expires: Date.now() + TTL_MS });
    } else {
      this.entries.delete(hash);
    }
    return owner;
  }
}
