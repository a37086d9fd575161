import Joi from "joi";
import { defineDomain, optionalStr, str } from "./setting";

/** A Redis Cluster's seed nodes, and the credentials and TLS setting they share (taken from the first URL). */
export interface RedisClusterConfig {
  nodes: { host: string; port: number }[];
  username: string;
  password: string;
  tls: boolean;
}

const redisUrl = Joi.string().uri({ scheme: ["redis", "rediss"] });

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/** `redis://[user:password@]host:port` seed URLs of a Redis Cluster, comma-separated. */
const clusterNodes = Joi.string()
  .allow("")
  .custom((value: string, helpers) => {
    const invalid = splitList(value).some((part) => redisUrl.validate(part).error);
    // The message names no node: a URL may carry the cluster's password.
    return invalid
      ? helpers.message({ custom: "{{#label}} must be comma-separated redis:// or rediss:// URLs" })
      : value;
  });

function parseClusterNodes(value: string): RedisClusterConfig | null {
  const urls = splitList(value).map((part) => new URL(part));
  if (urls.length === 0) return null;
  return {
    nodes: urls.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })),
    username: decodeURIComponent(urls[0].username),
    password: decodeURIComponent(urls[0].password),
    tls: urls[0].protocol === "rediss:",
  };
}

/** Where the queues and the shared counters live: one Redis, or a Redis Cluster. */
export const redis = defineDomain(
  "Redis",
  {
    REDIS_URL: str(
      redisUrl.default("redis://127.0.0.1:6379/0"),
      "Redis (BullMQ needs `maxmemory-policy noeviction`, and `appendonly yes` so a restart keeps the queued jobs)",
    ),
    REDIS_CLUSTER_NODES: optionalStr(
      clusterNodes,
      "comma-separated `redis://` or `rediss://` seed nodes of a Redis Cluster; when set, every connection is a cluster client and `REDIS_URL` is unused",
    ),
  },
  (env) => ({
    redisUrl: env("REDIS_URL"),
    /** Seed nodes of a Redis Cluster; when set, every connection is a cluster client and `REDIS_URL` is unused. */
    redisCluster: parseClusterNodes(env("REDIS_CLUSTER_NODES") ?? ""),
  }),
);
