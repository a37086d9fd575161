import type { RedisClient } from "./redis";
import { RunEventFollower, type FollowerOptions, type RunEventFeed } from "./run-event-follower";
import { shardOf, shardPrefixes } from "./shards";

/**
 * The run event streams a web process serves, one `RunEventFollower` per account shard: a
 * cluster refuses an XREAD naming keys of different slots, so each shard is read by a blocking
 * read of its own. A shard's follower (and its blocking connection) is made when a run of that
 * shard is first followed, so a process serving few shards holds few connections.
 */
export class ShardedRunEvents {
  private readonly followers = new Map<number, RunEventFollower>();

  /**
   * `connect` opens a blocking connection for a shard's reader; `control` is the process's
   * ordinary connection, shared by every shard.
   */
  constructor(
    private readonly connect: () => RedisClient,
    private readonly control: RedisClient,
    private readonly options: Omit<FollowerOptions, "prefix"> = {},
  ) {}

  /** Follows a run of an account after `fromId` ("0" for all its events). */
  follow(accountId: string, runId: string, fromId = "0"): RunEventFeed {
    const prefixes = shardPrefixes();
    const shard = shardOf(accountId, prefixes.length);
    let follower = this.followers.get(shard);
    if (!follower) {
      follower = new RunEventFollower(this.connect(), this.control, { ...this.options, prefix: prefixes[shard] });
      this.followers.set(shard, follower);
    }
    return follower.follow(runId, fromId);
  }

  /** Runs followed now, in every shard (for tests and metrics). */
  get size(): number {
    let size = 0;
    for (const follower of this.followers.values()) size += follower.size;
    return size;
  }

  /** Stops every shard's reader. */
  close(): void {
    for (const follower of this.followers.values()) follower.close();
  }
}
