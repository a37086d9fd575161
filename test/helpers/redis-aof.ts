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
