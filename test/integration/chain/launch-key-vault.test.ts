import { expect } from "chai";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { depositLaunchKey, destroyLaunchKey, fetchLaunchKey, openLaunchKey } from "../../../shared/secrets/launch-keys";
import { SealedValueError } from "../../../shared/secrets/sealed";
import { harness, type Harness } from "../../helpers/harness";
import { appendOnlyFilesText, rewritesSettled, slowRewriteDelayUs } from "../../helpers/redis-aof";

describe("a launch key waits in Redis only as long as its job", () => {
  let h: Harness;
  let redis: Redis;
  before(async () => {
    h = await harness();
    redis = h.deps.redis as Redis;
  });

  it("is sealed to its run, and gone from Redis and its append-only file once destroyed", async function () {
    this.timeout(60_000);
    const runId = randomUUID();
    const secret = `launch-secret-${randomUUID()}`;
    await depositLaunchKey(redis, runId, secret);
    const sealed = (await fetchLaunchKey(redis, runId))!;
    expect(sealed)
      .to.match(/^enc:v2:/)
      .and.not.include(secret);
    expect(openLaunchKey(sealed, runId)).to.equal(secret);
    // Bound to its run: useless for any other.
    expect(() => openLaunchKey(sealed, randomUUID())).to.throw(SealedValueError);

    // The write is on disk now (this is what the check below would find if it stayed).
    await rewritesSettled(redis);
    expect(await appendOnlyFilesText(redis)).to.include(sealed);

    await destroyLaunchKey(redis, runId);
    expect(await fetchLaunchKey(redis, runId)).to.equal(null);
    await rewritesSettled(redis);
    const disk = await appendOnlyFilesText(redis);
    expect(disk).to.not.include(sealed);
    expect(disk).to.not.include(runId);
  });

  it("is gone from the append-only file even when a rewrite was already running as it was deleted", async function () {
    this.timeout(60_000);
    const runId = randomUUID();
    await depositLaunchKey(redis, runId, `launch-secret-${randomUUID()}`);
    const sealed = (await fetchLaunchKey(redis, runId))!;
    await rewritesSettled(redis);
    // A rewrite slowed down (Redis's own testing knob, microseconds per key) is running when the
    // key is deleted: Redis refuses a second one, and the running one keeps the deleted key's SET.
    await redis.config("SET", "rdb-key-save-delay", String(await slowRewriteDelayUs(redis)));
    try {
      await redis.bgrewriteaof();
      expect(await redis.info("persistence")).to.match(/aof_rewrite_in_progress:1/);
      await destroyLaunchKey(redis, runId);
    } finally {
      await redis.config("SET", "rdb-key-save-delay", "0");
    }
    await rewritesSettled(redis);
    expect(await appendOnlyFilesText(redis)).to.not.include(sealed);
  });
});
