import type { RedisClient } from "./redis";

/** Runs a Lua script with these keys and arguments on a client; resolves with the script's reply. */
export type LuaScript = (redis: RedisClient, keys: string[], args: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script run atomically by Redis, sent by its SHA1 (ioredis `defineCommand`: EVALSHA, and
 * the script itself only when Redis does not know it yet, after a restart for instance). Every
 * key must be passed in `keys`, so a Redis Cluster can check that they share one slot.
 */
export function luaScript(name: string, lua: string): LuaScript {
  return (redis, keys, args) => {
    const commands = redis as unknown as Record<string, (...params: unknown[]) => Promise<unknown>>;
    if (typeof commands[name] !== "function") redis.defineCommand(name, { lua });
    return commands[name](keys.length, ...keys, ...args);
  };
}
