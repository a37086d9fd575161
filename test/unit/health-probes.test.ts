import { expect } from "chai";
import { redisAnswers } from "../../shared/health/probes";
import type { RedisClient } from "../../shared/queues/redis";

describe("readiness probes", () => {
  it("share one Redis PING among a burst of probes (no key is needed to probe, so a flood must not reach Redis)", async () => {
    let pings = 0;
    const client = { status: "ready", ping: async () => void pings++ } as unknown as RedisClient;
    const answers = await Promise.all(Array.from({ length: 200 }, () => redisAnswers(client)));
    expect(answers.every(Boolean)).to.equal(true);
    expect(pings).to.equal(1);
  });

  it("probe each client on its own", async () => {
    const pings: string[] = [];
    const client = (name: string) =>
      ({ status: "ready", ping: async () => void pings.push(name) }) as unknown as RedisClient;
    await Promise.all([redisAnswers(client("a")), redisAnswers(client("b"))]);
    expect(pings.sort()).to.deep.equal(["a", "b"]);
  });
});
