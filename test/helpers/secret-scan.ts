import type { DataSource } from "typeorm";
import type { RedisClient } from "../../shared/queues/redis";
import { allKeys } from "./redis-slots";

/** Every value in the Redis database, as text (strings, hashes, lists, sets, sorted sets, streams). */
export async function redisText(redis: RedisClient): Promise<string> {
  const parts: string[] = [];
  for (const key of await allKeys(redis)) {
    const type = await redis.type(key);
    let value: unknown;
    if (type === "string") value = await redis.get(key);
    else if (type === "hash") value = await redis.hgetall(key);
    else if (type === "list") value = await redis.lrange(key, 0, -1);
    else if (type === "set") value = await redis.smembers(key);
    else if (type === "zset") value = await redis.zrange(key, 0, -1, "WITHSCORES");
    else if (type === "stream") value = await redis.xrange(key, "-", "+");
    parts.push(`${key} ${JSON.stringify(value)}`);
  }
  return parts.join("\n");
}

/** Every row of every table in the public schema, as Postgres renders it in text. */
export async function postgresText(ds: DataSource): Promise<string> {
  const tables: { name: string }[] = await ds.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows: { row: string }[] = await ds.query(`SELECT t::text AS row FROM "${name.replace(/"/g, "")}" t`);
    // One push per row: a table of 100,000 rows spread into one call would overflow the stack.
    for (const { row } of rows) parts.push(`${name} ${row}`);
  }
  return parts.join("\n");
}
