import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { inFlightKey, SharedSpend, type SpendPool } from "../../workers/agents/spend-pools";

/** A run's calls noted in flight, as the pools' hash in Redis holds them and a retry reads them. */
describe("calls noted in flight in the shared spend pools", () => {
  let redis: RedisClient;
  const pool = (): SpendPool => ({
    key: `${config.queue.prefix}:spend:test:${randomUUID()}`,
    maxTokens: 1_000_000,
    maxCost: 100,
    holdsPrompts: false,
    ttlMs: 60_000,
    exhausted: () => "spent",
  });
  const call = { step: "Writer#0", agentName: "Writer", role: "agent", model: "gpt-4o", provider: "openai" };

  before(() => {
    redis = createRedis("blocking");
  });
  after(() => redis.disconnect());

  /** The run's pools as one execution of it (`owner`) uses them. */
  const execution = (runId: string, pools: SpendPool[], owner: string) =>
    new SharedSpend(redis, pools, { runId, owner });

  it("marks a call sent with a flag beside its note, leaving the note as reserved", async () => {
    const runId = randomUUID();
    const pools = [pool()];
    const first = execution(runId, pools, "first");
    const answer = await first.reserve(100, 50, 0, { what: call, carried: 0 });
    if (!("granted" in answer) || !answer.note) throw new Error("not granted");
    const noted = await redis.hgetall(inFlightKey(runId));
    await first.markSent(answer.note);
    const marked = await redis.hgetall(inFlightKey(runId));
    expect(marked[call.step]).to.equal(noted[call.step]);
    expect(Object.keys(marked)).to.have.length(2);
    // A later execution (the first one's worker died) bills it, as sent.
    const left = await execution(runId, pools, "second").leftInFlight();
    expect(left).to.have.length(1);
    expect(left[0]).to.include({ step: call.step, sent: true, owner: "first", prompt: 100, granted: 50 });
    // Settling it takes the note and the flag out.
    await execution(runId, pools, "second").settle(left[0], 0, 0, call.step);
    expect(await redis.hlen(inFlightKey(runId))).to.equal(0);
  });

  it("leaves a call that never left unmarked: a later execution owes nothing for it", async () => {
    const runId = randomUUID();
    const pools = [pool()];
    await execution(runId, pools, "first").reserve(100, 50, 0, { what: call, carried: 0 });
    const left = await execution(runId, pools, "second").leftInFlight();
    expect(left.map((c) => ({ step: c.step, sent: c.sent }))).to.deep.equal([{ step: call.step, sent: false }]);
    expect(await execution(runId, pools, "first").leftInFlight()).to.deep.equal([]); // its own calls are not left over
  });

  it("reads a note an older worker marked sent by rewriting it whole", async () => {
    const runId = randomUUID();
    const note = { ...call, prompt: 80, owner: "older", carried: 0, startedAt: new Date().toISOString(), sent: true };
    await redis.hset(inFlightKey(runId), call.step, `40 ${JSON.stringify(note)}`);
    const left = await execution(runId, [pool()], "newer").leftInFlight();
    expect(left).to.have.length(1);
    expect(left[0]).to.include({ step: call.step, sent: true, granted: 40, prompt: 80 });
  });
});
