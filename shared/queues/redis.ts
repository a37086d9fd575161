import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import { config, type RedisClusterConfig } from "../config";

/** A connection to a single Redis or to a Redis Cluster; both speak the same commands. */
export type RedisClient = Redis | Cluster;

/**
 * Redis connections. Workers and event listeners block on Redis and must never give up on a
 * command (`maxRetriesPerRequest: null`, as BullMQ requires); request-path clients fail fast so
 * the API can answer 503 quickly while Redis is down. With `REDIS_CLUSTER_NODES` set every
 * connection is a cluster client; an explicit `url` always means one node (tests use it).
 */
export function createRedis(kind: "blocking" | "request", url?: string): RedisClient {
  // Reconnect forever with a capped backoff: Redis restarts are survived, not fatal.
  const retry = (times: number) => Math.min(50 * times, 2_000);
  const perKind: RedisOptions =
    kind === "blocking"
      ? { maxRetriesPerRequest: null, enableReadyCheck: false }
      : // Commands issued in the same tick (a request's three rate-limit windows) leave in one write:
        // on loopback each socket write also runs Redis's receive path, so fewer writes is less latency.
        { maxRetriesPerRequest: 1, connectTimeout: 2_000, enableAutoPipelining: true };
  const cluster = url === undefined ? config.redisCluster : null;
  const client: RedisClient = cluster
    ? new Cluster(cluster.nodes, clusterOptions(cluster, kind, perKind, retry))
    : new Redis(url ?? config.redisUrl, {
        ...perKind,
        lazyConnect: false,
        retryStrategy: retry,
        enableOfflineQueue: kind === "blocking",
      });
  // Connection errors are reported by health checks and the failing commands themselves.
  client.on("error", () => undefined);
  return client;
}

function clusterOptions(
  cluster: RedisClusterConfig,
  kind: "blocking" | "request",
  perKind: RedisOptions,
  retry: (times: number) => number,
): ClusterOptions {
  return {
    clusterRetryStrategy: retry,
    enableOfflineQueue: kind === "blocking",
    redisOptions: {
      ...perKind,
      username: cluster.username || undefined,
      password: cluster.password || undefined,
      tls: cluster.tls ? {} : undefined,
    },
    // Managed clusters with TLS hand out node addresses their certificates are issued for: connect
    // by that name instead of a resolved IP, or certificate checks fail.
    ...(cluster.tls
      ? { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) }
      : {}),
  };
}
