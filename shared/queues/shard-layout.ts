import { config } from "../config";
import type { RedisClient } from "./redis";

/**
 * The one record of how many account shards a deployment's Redis keys are laid out in
 * (`QUEUE_SHARDS`, see `shards.ts`), kept under shard 0's prefix, which no shard count moves.
 * Processes that disagreed would each read and write their own keys: jobs queued by a web process
 * with 3 shards would wait forever for workers with 1, and limits would be counted twice.
 */
export const shardLayoutKey = (prefix = config.queue.prefix) => `${prefix}:queue-shards`;

/** Refusal to start a process whose `QUEUE_SHARDS` is not the deployment's. */
export class ShardLayoutMismatchError extends Error {
  constructor(
    readonly configured: number,
    readonly recorded: number,
    prefix: string,
  ) {
    super(
      `QUEUE_SHARDS is ${configured} here, but the keys under QUEUE_PREFIX ${prefix} are laid out in ${recorded} ` +
        `shard(s): every process of a deployment must use the same value. To change it, drain the queues and run ` +
        `the reshard script (docs/scaling.md, "Resharding needs drained queues").`,
    );
    this.name = "ShardLayoutMismatchError";
  }
}

/**
 * Records this process's shard count as the deployment's when none is recorded, and otherwise
 * refuses (throws `ShardLayoutMismatchError`) when they differ. Called by every web and worker
 * process before it queues or takes a job.
 */
export async function agreeOnShardLayout(
  redis: RedisClient,
  shards = config.queue.shards,
  prefix = config.queue.prefix,
): Promise<void> {
  const key = shardLayoutKey(prefix);
  if ((await redis.set(key, String(shards), "NX")) === "OK") return;
  const recorded = Number(await redis.get(key));
  // A value nobody could have written (the key edited by hand) is not a layout to agree with.
  if (!Number.isInteger(recorded) || recorded < 1) throw new ShardLayoutMismatchError(shards, Number.NaN, prefix);
  if (recorded !== shards) throw new ShardLayoutMismatchError(shards, recorded, prefix);
}

/** Records `shards` as the deployment's layout (the reshard script, once the queues are drained). */
export async function recordShardLayout(redis: RedisClient, shards: number, prefix = config.queue.prefix) {
  await redis.set(shardLayoutKey(prefix), String(shards));
}
