import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { RunEventFollower } from "../../shared/queues/run-event-follower";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { RunEventWriter, type RunEventEntry } from "../../shared/queues/run-events";
import { harness } from "../helpers/harness";

/**
 * Writes `n` events (agents `<prefix>0` …) to a run's stream and waits until Redis has them: not
 * chunks, which the writer would merge into fewer entries.
 */
async function write(redis: RedisClient, runId: string, prefix: string, n: number): Promise<void> {
  const writer = new RunEventWriter(redis, runId);
  for (let i = 0; i < n; i++) writer.emit({ type: "agent_start", agent: `${prefix}${i}` });
  await writer.flush();
}

const contents = (entries: RunEventEntry[]) => entries.map((e) => (e.event as { agent: string }).agent);

/** Takes from a feed until `n` entries came (or fails at the deadline). */
async function takeAll(feed: { next(ms: number): Promise<RunEventEntry[]> }, n: number): Promise<RunEventEntry[]> {
  const got: RunEventEntry[] = [];
  const deadline = Date.now() + 5_000;
  while (got.length < n && Date.now() < deadline) got.push(...(await feed.next(500)));
  return got;
}

/** The shared reader of run event streams: one connection, any number of followers. */
describe("RunEventFollower: one blocking connection reads every followed run", function () {
  let redis: RedisClient;
  let follower: RunEventFollower;
  const started: RunEventFollower[] = [];
  const start = (options?: ConstructorParameters<typeof RunEventFollower>[2]) => {
    const f = new RunEventFollower(createRedis("blocking"), redis, options);
    started.push(f);
    return f;
  };

  before(async () => {
    redis = (await harness()).deps.redis;
  });
  beforeEach(() => {
    follower = start();
  });
  afterEach(() => {
    for (const f of started.splice(0)) f.close();
  });

  it("gives each follower of a run the entries after its own starting point, and other runs' to theirs", async () => {
    const [run, other] = [randomUUID(), randomUUID()];
    await write(redis, run, "a", 3);
    const fromStart = follower.follow(run);
    const firstTwo = await takeAll(fromStart, 3);
    expect(contents(firstTwo)).to.deep.equal(["a0", "a1", "a2"]);
    const fromSecond = follower.follow(run, firstTwo[1].id);
    const ofOther = follower.follow(other);
    await write(redis, run, "b", 2);
    await write(redis, other, "o", 1);
    expect(contents(await takeAll(fromStart, 2))).to.deep.equal(["b0", "b1"]);
    expect(contents(await takeAll(fromSecond, 3))).to.deep.equal(["a2", "b0", "b1"]);
    expect(contents(await takeAll(ofOther, 1))).to.deep.equal(["o0"]);
    for (const feed of [fromStart, fromSecond, ofOther]) feed.close();
  });

  it("interrupts a blocking read when a follower joins: the newcomer's events come at once, not at the read's time-out", async () => {
    follower = start({ blockMs: 10_000 });
    const waiting = follower.follow(randomUUID()); // the reader now blocks on this run alone
    await new Promise((resolve) => setImmediate(resolve));
    const run = randomUUID();
    await write(redis, run, "x", 1);
    const began = Date.now();
    const feed = follower.follow(run);
    expect(contents(await feed.next(5_000))).to.deep.equal(["x0"]);
    expect(Date.now() - began, "ms to the newcomer's first event").to.be.below(1_000);
    feed.close();
    waiting.close();
  });

  it("holds at most maxQueued entries for a follower that does not take them, and gives it the rest in order later", async () => {
    follower = start({ maxQueued: 10, countPerStream: 4 });
    const run = randomUUID();
    await write(redis, run, "e", 35);
    const slow = follower.follow(run);
    const fast = follower.follow(run);
    expect(await takeAll(fast, 35)).to.have.length(35);
    // The slow one took nothing meanwhile: what the process holds for it stays within the cap.
    const firstTake = await slow.next(0);
    expect(firstTake.length).to.be.within(1, 10);
    const rest = await takeAll(slow, 35 - firstTake.length);
    expect(contents([...firstTake, ...rest])).to.deep.equal(Array.from({ length: 35 }, (_, i) => `e${i}`));
    slow.close();
    fast.close();
  });

  it("lets a follower's wait end when its client leaves", async () => {
    const feed = follower.follow(randomUUID());
    const stop = new AbortController();
    const began = Date.now();
    setTimeout(() => stop.abort(), 50);
    expect(await feed.next(5_000, stop.signal)).to.deep.equal([]);
    expect(Date.now() - began).to.be.below(1_000);
    feed.close();
    expect(follower.size).to.equal(0);
  });
});
