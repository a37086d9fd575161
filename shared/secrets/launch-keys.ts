import { setTimeout as delay } from "node:timers/promises";
import type { Redis } from "ioredis";
import { config } from "../config";
import { logger } from "../logger";
import type { RedisClient } from "../queues/redis";
import { seal, unseal } from "./sealed";

/**
 * A token launch's signing key, between the API that received it and the chain worker that signs
 * with it. It is never written to Postgres, and never to the job itself (job data shows on Bull
 * Board and stays with a finished job): it waits sealed, bound to its run, in a Redis key of its
 * own that lives only as long as the job. When the job ends the key is deleted and Redis is asked
 * to rewrite its append-only file, which otherwise keeps every write, the sealed key's included,
 * until its next rewrite.
 */

/** Longest a key waits for its job; the job deletes it when it ends, this only covers a job that never does. */
const KEEP_AT_MOST_SECONDS = 24 * 60 * 60;

/** `prefix`: the key prefix of the run's account's shard (`accountPrefix`), where its job is queued too. */
function keyName(runId: string, prefix: string): string {
  return `${prefix}:launch-key:${runId}`;
}

function bindingFor(runId: string) {
  return { purpose: "launch-key" as const, run: runId };
}

/** Keeps a launch's signing key (its text form), sealed to the run, until the run's job ends. */
export async function depositLaunchKey(
  redis: RedisClient,
  runId: string,
  secretKey: string,
  prefix = config.queue.prefix,
): Promise<void> {
  await redis.set(keyName(runId, prefix), seal(secretKey, bindingFor(runId)), "EX", KEEP_AT_MOST_SECONDS);
}

/** The sealed key of a run, as stored (null once it is gone); `openLaunchKey` opens it when signing. */
export async function fetchLaunchKey(
  redis: RedisClient,
  runId: string,
  prefix = config.queue.prefix,
): Promise<string | null> {
  return redis.get(keyName(runId, prefix));
}

/** The key's text, from what `fetchLaunchKey` returned for the same run. */
export function openLaunchKey(sealed: string, runId: string): string {
  return unseal(sealed, bindingFor(runId));
}

/** Deletes a run's key for good: the key itself, then its trace in the append-only file. */
export async function destroyLaunchKey(redis: RedisClient, runId: string, prefix = config.queue.prefix): Promise<void> {
  const deleted = await redis.del(keyName(runId, prefix));
  if (deleted > 0) await rewriteAppendOnlyFiles(redis);
}

/** How long a deletion waits for a rewrite that was already running (it started too early to drop the key). */
const WAIT_FOR_RUNNING_REWRITE_MS = 5 * 60_000;
const RECHECK_MS = 100;

/**
 * Asks every primary that keeps an append-only file to rewrite it, so the deleted key's SET leaves
 * the disk too. Launches are rare, so the cost of a rewrite per launch is small. A Redis that
 * refuses (a managed service that disables the commands) is logged, not fatal: the operator is
 * told the file still holds the sealed key.
 */
async function rewriteAppendOnlyFiles(redis: RedisClient): Promise<void> {
  const nodes = "nodes" in redis && typeof redis.nodes === "function" ? redis.nodes("master") : [redis];
  await Promise.all(
    nodes.map(async (node) => {
      try {
        const [, appendOnly] = (await node.config("GET", "appendonly")) as [string, string];
        if (appendOnly === "yes") await rewriteStartingNow(node);
      } catch (err) {
        logger.warn(
          { err: (err as Error).message },
          "could not rewrite Redis's append-only file after deleting a launch key; it keeps the sealed key until its next rewrite",
        );
      }
    }),
  );
}

/**
 * Starts a rewrite that begins after the deletion. Redis refuses a second rewrite while one runs,
 * and the running one may have taken its snapshot before the key was deleted (its writes since go
 * to a file the rewrite keeps), so wait for it to end and start another.
 */
async function rewriteStartingNow(node: Pick<Redis, "bgrewriteaof">): Promise<void> {
  const giveUpAt = Date.now() + WAIT_FOR_RUNNING_REWRITE_MS;
  for (;;) {
    try {
      await node.bgrewriteaof();
      return;
    } catch (err) {
      if (!/already in progress/i.test((err as Error).message) || Date.now() > giveUpAt) throw err;
      await delay(RECHECK_MS);
    }
  }
}
