import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { eventually } from "./http";

/**
 * Redis's append-only files as text (the test Redis runs on this machine): every write Redis still
 * keeps on disk. Turns the append-only file on first when the server was started without it.
 */
export async function appendOnlyFilesText(redis: Redis): Promise<string> {
  const [, appendOnly] = (await redis.config("GET", "appendonly")) as [string, string];
  if (appendOnly !== "yes") {
    await redis.config("SET", "appendonly", "yes");
    await rewritesSettled(redis);
  }
  const [, dir] = (await redis.config("GET", "dir")) as [string, string];
  const [, sub] = (await redis.config("GET", "appenddirname")) as [string, string];
  const folder = join(dir, sub);
  const files = await readdir(folder);
  const texts = await Promise.all(files.map((file) => readFile(join(folder, file)).then((b) => b.toString("latin1"))));
  return texts.join("\n");
}

/** Waits until no append-only file rewrite is running or scheduled. */
export async function rewritesSettled(redis: Redis): Promise<void> {
  await eventually(async () => {
    const info = await redis.info("persistence");
    return /aof_rewrite_in_progress:0/.test(info) && /aof_rewrite_scheduled:0/.test(info) ? true : undefined;
  }, 20_000);
}

/**
 * A per-key delay (microseconds, Redis's `rdb-key-save-delay`) that keeps a rewrite running for a
 * few seconds at most, however many keys the whole server holds: a rewrite copies every database,
 * so a fixed delay made it last minutes on a server other test runs had filled.
 */
export async function slowRewriteDelayUs(redis: Redis): Promise<number> {
  const keyspace = await redis.info("keyspace");
  const keys = [...keyspace.matchAll(/keys=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return Math.max(50, Math.min(2_000, Math.floor(3_000_000 / Math.max(1, keys))));
}
