import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { expect } from "chai";
import { luaScript } from "../../shared/queues/lua-script";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { harness } from "../helpers/harness";

/**
 * Our Lua scripts on a client that pipelines the commands of one tick (the web's request path):
 * scripts first used together, and scripts Redis has forgotten, must neither crash the process
 * nor swap their replies.
 */
describe("Lua scripts on a pipelining Redis client", () => {
  let redis: RedisClient;
  before(async () => {
    await harness();
    redis = createRedis("request");
    // A request-path client refuses commands until it is connected (no offline queue).
    if (redis.status !== "ready") await once(redis, "ready");
  });
  after(() => redis.disconnect());

  /** Two scripts no process has run yet, with replies that tell them apart. */
  function freshScripts() {
    const tag = randomUUID();
    const count = luaScript(`return redis.call('INCRBY', KEYS[1], ARGV[1]) -- ${tag}`);
    const echo = luaScript(`return 'echo:' .. ARGV[1] -- ${tag}`);
    const key = `{apiary-lua-${tag}}:n`;
    return { count, echo, key };
  }

  it("runs scripts first used in the same tick, each with its own reply", async () => {
    const { count, echo, key } = freshScripts();
    const replies = await Promise.all([
      count(redis, [key], [2]),
      echo(redis, [key], ["a"]),
      count(redis, [key], [3]),
      echo(redis, [key], ["b"]),
    ]);
    expect(replies).to.deep.equal([2, "echo:a", 5, "echo:b"]);
  });

  it("runs them again after Redis forgot every script (a restart or a failover)", async () => {
    const { count, echo, key } = freshScripts();
    expect(await count(redis, [key], [1])).to.equal(1);
    await redis.script("FLUSH");
    const replies = await Promise.all([count(redis, [key], [1]), echo(redis, [key], ["c"]), count(redis, [key], [1])]);
    expect(replies).to.deep.equal([2, "echo:c", 3]);
  });
});
