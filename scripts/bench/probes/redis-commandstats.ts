import Redis from "ioredis";

/** Calls per Redis command since the last `CONFIG RESETSTAT`, commands run inside Lua scripts included. */
export type CommandCalls = Record<string, number>;

/** Reads `INFO commandstats` into calls per command (`cmdstat_evalsha:calls=12,…` → `{evalsha: 12}`). */
export function parseCommandstats(info: string): CommandCalls {
  const calls: CommandCalls = {};
  for (const line of info.split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls[match[1]] = Number(match[2]);
  }
  return calls;
}

/**
 * Counts the commands a private Redis server runs over a window: `reset` zeroes its statistics,
 * `read` returns what ran since, less the probe's own `INFO` and `CONFIG` calls. Only a server
 * nothing else uses gives a stack's own figures; commands run by scripts count as Redis counts them.
 */
export class RedisCommandCounter {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1 });
    this.redis.on("error", () => undefined); // refused while the server starts: `whenAnswering` waits it out
  }

  /** Resolves once the server answers a PING; rejects after `timeoutMs`. */
  async whenAnswering(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.redis.ping();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async reset(): Promise<void> {
    await this.redis.config("RESETSTAT");
  }

  async read(): Promise<CommandCalls> {
    const calls = parseCommandstats(await this.redis.info("commandstats"));
    delete calls.info;
    delete calls.config;
    delete calls["config|resetstat"];
    return calls;
  }

  close(): void {
    this.redis.disconnect();
  }
}
