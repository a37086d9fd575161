import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { expect } from "chai";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { agreeOnShardLayout, shardLayoutKey, ShardLayoutMismatchError } from "../../shared/queues/shard-layout";
import { shardPrefixes } from "../../shared/queues/shards";
import { exited, spawnEntry } from "../helpers/child-process";
import { harness } from "../helpers/harness";

/**
 * Every process of a deployment must lay its Redis keys out in the same number of account shards
 * (`QUEUE_SHARDS`): the first records it, one that disagrees refuses to start, and the reshard
 * script changes the record only once the old layout's queues are drained.
 */
describe("one shard layout per deployment (QUEUE_SHARDS)", function () {
  this.timeout(60_000);
  let redis: RedisClient;
  before(async () => {
    await harness();
    redis = createRedis("blocking");
  });
  after(() => redis.disconnect());

  const freshPrefix = () => `{apiary-layout-${randomUUID().slice(0, 8)}}`;

  it("the first process records its shard count; the same count agrees, another is refused by name", async () => {
    const prefix = freshPrefix();
    await agreeOnShardLayout(redis, 3, prefix);
    expect(await redis.get(shardLayoutKey(prefix))).to.equal("3");
    await agreeOnShardLayout(redis, 3, prefix); // a second process of the same deployment

    const refused = await agreeOnShardLayout(redis, 1, prefix).catch((err: Error) => err);
    expect(refused).to.be.instanceOf(ShardLayoutMismatchError);
    expect((refused as Error).message)
      .to.include("QUEUE_SHARDS is 1 here")
      .and.include("in 3 shard(s)");
    expect(await redis.get(shardLayoutKey(prefix)), "the record stands").to.equal("3");
  });

  it("a worker started with another QUEUE_SHARDS exits before taking a job, saying why", async () => {
    const prefix = freshPrefix();
    await agreeOnShardLayout(redis, 2, prefix);
    const worker = spawnEntry("workers/main.ts", ["--queues", "agent", "--metrics-port", "0"], {
      QUEUE_PREFIX: prefix,
      QUEUE_SHARDS: "1",
      LOG_LEVEL: "info",
    });
    expect(await exited(worker)).to.equal(1);
    expect(worker.output.join("")).to.include("QUEUE_SHARDS is 1 here, but the keys under QUEUE_PREFIX");
  });

  it("the reshard script refuses while the old layout holds a waiting job, and records the new count once drained", async () => {
    const prefix = freshPrefix();
    await agreeOnShardLayout(redis, 1, prefix);
    const queue = new Queue("agent", { connection: redis, prefix: shardPrefixes(1, prefix)[0] });
    const job = await queue.add("agent-run", { runId: randomUUID() });
    const reshard = async () => {
      const child = spawnEntry("scripts/reshard.ts", ["2"], { QUEUE_PREFIX: prefix, QUEUE_SHARDS: "1" });
      return { code: await exited(child), output: child.output.join("") };
    };

    const refused = await reshard();
    expect(refused.code).to.equal(1);
    expect(refused.output).to.include("Not resharded").and.include("shard 0 agent: 1 waiting");
    expect(await redis.get(shardLayoutKey(prefix))).to.equal("1");

    await job.remove();
    const done = await reshard();
    expect(done.code, done.output).to.equal(0);
    expect(done.output).to.include("1 → 2 shard(s)");
    await agreeOnShardLayout(redis, 2, prefix);
    expect(await agreeOnShardLayout(redis, 1, prefix).catch((err: Error) => err.name)).to.equal(
      "ShardLayoutMismatchError",
    );
    await queue.close();
  });
});
