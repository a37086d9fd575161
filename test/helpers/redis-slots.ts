import calculateSlot from "cluster-key-slot";
import type { RedisClient } from "../../shared/queues/redis";

/** Every key of the connected Redis database (SCAN, so a big database is not blocked). */
export async function allKeys(redis: RedisClient): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "COUNT", 1_000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys;
}

/** The Redis Cluster slot of a key. */
export const slotOf = (key: string): number => calculateSlot(key);

/** Keys starting with `prefix` whose slot differs from the prefix's hash-tag slot (should be none). */
export function keysOutsidePrefixSlot(keys: string[], prefix: string): string[] {
  const slot = slotOf(`${prefix}:`);
  return keys.filter((key) => key.startsWith(prefix) && slotOf(key) !== slot);
}
