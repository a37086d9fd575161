import { expect } from "chai";
import calculateSlot from "cluster-key-slot";
import { Redis } from "ioredis";
import { boardQueueName } from "../../api/http/bull-board";
import { config } from "../../shared/config";
import { accountSpendKey, requestSpendKey } from "../../shared/limits/shared-spend";
import { watchQueues } from "../../shared/metrics/queues";
import { webRegistry } from "../../shared/metrics/registry";
import type { Queue } from "bullmq";
import { ShardedQueues } from "../../shared/queues/queues";
import { runEventsKey } from "../../shared/queues/run-events";
import { accountKeys, accountPrefix, shardOf, shardPrefixes } from "../../shared/queues/shards";
import { inFlightKey } from "../../workers/agents/spend-pools";
import { shardConcurrency } from "../../workers/worker-pool";

/** The master owning a slot when `masters` masters split the slots evenly, as `redis-cli --cluster create` does. */
const masterOf = (slot: number, masters: number) => Math.floor((slot * masters) / 16_384);
const tagOf = (prefix: string) => /\{([^}]+)\}/.exec(prefix)?.[1];
const accounts = Array.from({ length: 2_000 }, (_, i) => `account-${i}`);

describe("queue shards: accounts over the Redis keyspace", () => {
  it("maps an account to one shard by a stable hash, the same on every call, spread evenly", () => {
    expect(shardOf("5b0c1c1e-0000-4000-8000-000000000001", 1)).to.equal(0);
    expect(shardOf("account-7", 8)).to.equal(shardOf("account-7", 8));
    // A known value: processes of every version must agree on it, or an account's jobs and limits split.
    expect(shardOf("account-7", 8)).to.equal(6);
    const counts = new Array<number>(8).fill(0);
    for (const account of accounts) counts[shardOf(account, 8)]++;
    for (const count of counts) expect(count).to.be.within(200, 300); // 250 each, give or take
  });

  it("keeps QUEUE_PREFIX for shard 0, and gives every other shard a hash tag of its own", () => {
    expect(shardPrefixes(1, "{apiary}")).to.deep.equal(["{apiary}"]);
    const prefixes = shardPrefixes(6, "x{apiary}:y");
    expect(prefixes[0]).to.equal("x{apiary}:y");
    expect(new Set(prefixes.map(tagOf)).size).to.equal(6);
    for (const [shard, prefix] of prefixes.entries()) {
      expect(prefix).to.match(/^x\{[^}]+\}:y$/);
      if (shard > 0) expect(tagOf(prefix)).to.match(new RegExp(`^apiary-s${shard}-\\d+$`));
    }
    // Worked out the same way each time: every process names the same keys.
    expect(shardPrefixes(6, "x{apiary}:y")).to.deep.equal(prefixes);
  });

  it("puts one shard on each master of an evenly split cluster (as many shards as masters, or a multiple)", () => {
    for (const masters of [2, 3, 5]) {
      for (const shards of [masters, masters * 2]) {
        const perMaster = new Array<number>(masters).fill(0);
        for (const prefix of shardPrefixes(shards, "{apiary}")) perMaster[masterOf(calculateSlot(prefix), masters)]++;
        expect(perMaster, `${shards} shards on ${masters} masters`).to.deep.equal(
          new Array<number>(masters).fill(shards / masters),
        );
      }
    }
  });

  it("names in a one-shard deployment every key exactly as before shards existed", async () => {
    const prefix = config.queue.prefix;
    expect(config.queue.shards).to.equal(1);
    expect(accountPrefix("any-account")).to.equal(prefix);
    expect(accountKeys("rl")("any-account")).to.equal(`${prefix}:rl`);
    expect(accountKeys("open")("any-account")).to.equal(`${prefix}:open`);
    expect(accountSpendKey("u1", "2026-11-27")).to.equal(`${prefix}:spend:account:u1:2026-11-27`);
    expect(requestSpendKey("p1", accountPrefix("u1"))).to.equal(`${prefix}:spend:request:p1`);
    expect(inFlightKey("r1", accountPrefix("u1"))).to.equal(`${prefix}:spend:in-flight:r1`);
    expect(runEventsKey("r1", accountPrefix("u1"))).to.equal(`${prefix}:run-events:r1`);
    const connection = new Redis({ lazyConnect: true });
    const queues = new ShardedQueues(connection);
    try {
      expect(queues.shards).to.have.length(1);
      expect(queues.of("any-account")).to.equal(queues.shards[0]);
      expect(queues.all().map((q) => q.qualifiedName)).to.have.members([
        `${prefix}:swarm`,
        `${prefix}:agent`,
        `${prefix}:chain`,
      ]);
    } finally {
      await queues.close();
      connection.disconnect();
    }
  });

  it("shows each shard's queue on Bull Board under a name of its own, and one shard's under the queue's name", () => {
    expect(boardQueueName("agent", 0, 1)).to.equal("agent");
    expect(boardQueueName("agent", 0, 4)).to.equal("shard-0.agent");
    expect(boardQueueName("swarm", 3, 4)).to.equal("shard-3.swarm");
  });

  it("shares a process's job concurrency out over the shards' workers, at least one each", () => {
    const sum = (concurrency: number, shards: number) =>
      Array.from({ length: shards }, (_, shard) => shardConcurrency(concurrency, shard, shards)).reduce(
        (a, b) => a + b,
      );
    expect(sum(1_000, 1)).to.equal(1_000);
    expect(sum(1_000, 3)).to.equal(1_000);
    expect(shardConcurrency(1_000, 0, 3)).to.equal(334);
    expect(shardConcurrency(1_000, 2, 3)).to.equal(333);
    expect(sum(4, 4)).to.equal(4);
    expect(sum(4, 8)).to.equal(8); // one each: a shard's worker takes at least one job
  });

  it("reports a queue's job counts on /metrics summed over its shards", async () => {
    // Stand-ins answering job counts as each shard's queue would (a name no real queue has).
    const shardQueue = (waiting: number) =>
      ({
        name: "sharded-test",
        getJobCounts: async () => ({ waiting, active: 1, delayed: 0, failed: 2 }),
      }) as unknown as Queue;
    watchQueues([shardQueue(2), shardQueue(3), shardQueue(4)]);
    const metric = (await webRegistry.getSingleMetric("apiary_queue_jobs")!.get()).values.filter(
      (v) => v.labels.queue === "sharded-test",
    );
    expect(Object.fromEntries(metric.map((v) => [v.labels.state, v.value]))).to.deep.equal({
      waiting: 9,
      active: 3,
      delayed: 0,
      failed: 6,
    });
  });
});
