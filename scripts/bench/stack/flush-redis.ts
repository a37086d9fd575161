import Redis from "ioredis";

/** Empties the Redis database at `url`, so no job, event or rate-limit counter of an earlier run is replayed. */
export async function flushRedisDb(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}
