import { Redis, type RedisOptions } from "ioredis";
import { config } from "../config";

/**
 * Redis connections. Workers and event listeners block on Redis and must never give up on a
 * command (`maxRetriesPerRequest: null`, as BullMQ requires); request-path clients fail fast so
 * the API can answer 503 quickly while Redis is down.
 */
export function createRedis(kind: "blocking" | "request", url = config.redisUrl): Redis {
  const base: RedisOptions = {
    lazyConnect: false,
    // Reconnect forever with a capped backoff: Redis restarts are survived, not fatal.
    retryStrategy: (times) => Math.min(50 * times, 2_000),
  };
  const options: RedisOptions =
    kind === "blocking"
      ? { ...base, maxRetriesPerRequest: null, enableReadyCheck: false }
      : { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  const client = new Redis(url, options);
  // Connection errors are reported by health checks and the failing commands themselves.
  client.on("error", () => undefined);
  return client;
}
