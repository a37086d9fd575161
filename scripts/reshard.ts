import { Queue } from "bullmq";
import { config } from "../shared/config";
import { QUEUE_NAMES } from "../shared/queues/queue-names";
import { createRedis, type RedisClient } from "../shared/queues/redis";
import { recordShardLayout, shardLayoutKey } from "../shared/queues/shard-layout";
import { shardPrefixes } from "../shared/queues/shards";

const USAGE = `Usage: npx tsx scripts/reshard.ts <shards>     (in the image: node dist/scripts/reshard.js <shards>)`;

/** Job states a drained queue has none in: what a worker of the old layout would still have to take or finish. */
const UNFINISHED = ["waiting", "active", "delayed", "prioritized", "waiting-children"] as const;

/** Every queue of every shard of a layout that still holds unfinished jobs, with their counts. */
async function unfinishedJobs(connection: RedisClient, shards: number): Promise<string[]> {
  const found: string[] = [];
  for (const [shard, prefix] of shardPrefixes(shards).entries())
    for (const name of QUEUE_NAMES) {
      const queue = new Queue(name, { connection, prefix });
      try {
        const counts = await queue.getJobCounts(...UNFINISHED);
        const held = Object.entries(counts).filter(([, n]) => n > 0);
        if (held.length) found.push(`shard ${shard} ${name}: ${held.map(([state, n]) => `${n} ${state}`).join(", ")}`);
      } finally {
        await queue.close();
      }
    }
  return found;
}

/**
 * Changes the deployment's `QUEUE_SHARDS` record (`shared/queues/shard-layout.ts`), which every
 * process checks at start. Refuses while any queue of the recorded layout holds a job a worker has
 * yet to take or finish: under the new layout's prefixes no worker would read it. Run it with the
 * web processes stopped and the workers drained, then start every process with the new value.
 */
async function main(argv: string[]): Promise<number> {
  const wanted = Number(argv[0]);
  if (argv.length !== 1 || !Number.isInteger(wanted) || wanted < 1 || wanted > 256) {
    console.error(USAGE);
    return 2;
  }
  const redis = createRedis("blocking");
  try {
    const recorded = Number((await redis.get(shardLayoutKey())) ?? config.queue.shards);
    if (recorded === wanted) {
      console.log(`The keys under ${config.queue.prefix} are laid out in ${wanted} shard(s) already.`);
      return 0;
    }
    const unfinished = await unfinishedJobs(redis, recorded);
    if (unfinished.length) {
      console.error(`Not resharded: ${recorded}-shard queues still hold jobs (drain them first):`);
      for (const line of unfinished) console.error(`  ${line}`);
      return 1;
    }
    await recordShardLayout(redis, wanted);
    console.log(
      `Resharded ${config.queue.prefix}: ${recorded} → ${wanted} shard(s). Start every process with QUEUE_SHARDS=${wanted}.`,
    );
    return 0;
  } finally {
    redis.disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
