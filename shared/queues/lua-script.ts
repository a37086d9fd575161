import { createHash } from "node:crypto";
import type { RedisClient } from "./redis";

/** Runs a Lua script with these keys and arguments on a client; resolves with the script's reply. */
export type LuaScript = (redis: RedisClient, keys: string[], args: (string | number)[]) => Promise<unknown>;

const isNoScript = (err: unknown) => err instanceof Error && err.message.startsWith("NOSCRIPT");

/**
 * A Lua script run atomically by Redis, sent as a plain `EVALSHA` of its SHA1, and as `EVAL` (which
 * also caches it) only when Redis does not know it yet: after a restart, or on a new server. Not
 * ioredis's `defineCommand`: on a connection that pipelines the commands of one tick, its scripts
 * crash the process (a command defined after the tick's pipeline was made is missing from it;
 * its script loads shift the pipeline's replies), and both the request path and the workers run
 * many scripts a tick. Every key must be passed in `keys`, so a Redis Cluster can check that they
 * share one slot and send the script to its master.
 */
export function luaScript(lua: string): LuaScript {
  const sha = createHash("sha1").update(lua).digest("hex");
  return async (redis, keys, args) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!isNoScript(err)) throw err;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
  };
}
