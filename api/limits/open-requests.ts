import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import { ServiceUnavailableError } from "../../shared/errors";
import { luaScript } from "../../shared/queues/lua-script";
import type { RedisClient } from "../../shared/queues/redis";
import { accountKeys, prefixFor, type KeyPrefix } from "../../shared/queues/shards";
import type { RateSubject } from "./rate-limiter";

/** How many streams and synchronous waits a key and its account may hold open at once. */
export interface OpenRequestCaps {
  perKey: number;
  perAccount: number;
}

export interface OpenRequestsOptions {
  /** Caps by tier name; `free` applies to any tier not listed. */
  tiers: { free: OpenRequestCaps } & Record<string, OpenRequestCaps>;
  /** Redis key prefix of the lease sets: the account's shard's (`accountKeys`) in a deployment. */
  prefix: KeyPrefix;
  /** Longest wait for Redis before the request is refused with 503. */
  timeoutMs: number;
  /** How long a lease lives unless renewed: a web process that dies frees its leases within this. */
  leaseMs?: number;
}

/** A slot held while a request streams or waits; release it when the request ends. */
export interface OpenRequestLease {
  release(): void;
}

/** Why a request was refused a slot. */
export interface OpenRequestRefusal {
  scope: "key" | "account";
  limit: number;
  tier: string;
}

/**
 * Takes a lease in the key's and the account's sets in one atomic step, or none when either is
 * full. Each set maps lease id → expiry (ms); expired leases (a web process that died) are dropped
 * first, so they free their slots by themselves.
 *
 * KEYS: the key's set, the account's set. ARGV: now, the lease's expiry, its id, the key's cap,
 * the account's cap, the sets' time to live (ms).
 * Reply: 1 taken, 0 the key's set is full, -1 the account's.
 */
const TAKE_LUA = `
local now = ARGV[1]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return -1 end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[i], ARGV[6])
end
return 1
`;
const takeScript = luaScript("apiaryTakeOpenRequest", TAKE_LUA);

/**
 * Caps on the streams and synchronous waits each API key and each account hold open at once,
 * across every web process: leases in Redis sorted sets, checked and taken by one script,
 * renewed while held (one pipeline per process every third of a lease) and removed when the
 * request ends. A stream or wait costs the process a socket and memory for up to `SYNC_WAIT_MS`,
 * so without a cap a few accounts could hold them all.
 */
export class OpenRequests {
  private readonly held = new Map<string, string[]>();
  private renewer: NodeJS.Timeout | null = null;
  private readonly leaseMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: OpenRequestsOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /** The caps of a tier (unknown tiers get `free`'s) and the tier they are of. */
  capsFor(tier: string): OpenRequestCaps & { tier: string } {
    const known = Object.hasOwn(this.options.tiers, tier) ? tier : "free";
    return { ...this.options.tiers[known], tier: known };
  }

  /** A lease for one more open request of the subject's, or why there is none. 503 when Redis does not answer. */
  async take(subject: RateSubject): Promise<{ lease: OpenRequestLease } | { refused: OpenRequestRefusal }> {
    if (this.redis.status !== "ready") throw unavailable();
    const caps = this.capsFor(subject.tier);
    const prefix = prefixFor(this.options.prefix, subject.userId);
    const sets = [`${prefix}:key:${subject.apiKeyId}`, `${prefix}:account:${subject.userId}`];
    const id = randomUUID();
    const now = Date.now();
    let timer: NodeJS.Timeout | undefined;
    let reply: unknown;
    try {
      const taking = takeScript(this.redis, sets, [
        now,
        now + this.leaseMs,
        id,
        caps.perKey,
        caps.perAccount,
        this.leaseMs,
      ]);
      const timeout = new Promise((_, reject) => (timer = setTimeout(reject, this.options.timeoutMs)));
      reply = await Promise.race([taking, timeout]);
    } catch {
      // A lease Redis took after the time-out is never renewed, and expires by itself.
      throw unavailable();
    } finally {
      clearTimeout(timer);
    }
    if (reply === 0) return { refused: { scope: "key", limit: caps.perKey, tier: caps.tier } };
    if (reply === -1) return { refused: { scope: "account", limit: caps.perAccount, tier: caps.tier } };
    this.held.set(id, sets);
    this.renewer ??= setInterval(() => this.renew(), this.leaseMs / 3).unref();
    return { lease: { release: () => this.release(id) } };
  }

  /** Leases this process holds now (for tests and metrics). */
  get size(): number {
    return this.held.size;
  }

  private release(id: string): void {
    const sets = this.held.get(id);
    if (!sets) return;
    this.held.delete(id);
    if (this.held.size === 0 && this.renewer) {
      clearInterval(this.renewer);
      this.renewer = null;
    }
    // A lease Redis did not hear released expires by itself.
    const pipeline = this.redis.pipeline();
    for (const set of sets) pipeline.zrem(set, id);
    pipeline.exec().catch(() => undefined);
  }

  /**
   * Moves every held lease's expiry on. Commands leave in order on one connection, so a release
   * sent after this cannot be undone by it; a renewal that fails is tried again next time.
   */
  private renew(): void {
    const expiry = Date.now() + this.leaseMs;
    // One pipeline per hash tag: a Redis Cluster refuses a pipeline whose keys live on several
    // masters, and the leases held here belong to accounts of every shard.
    const pipelines = new Map<string, ReturnType<RedisClient["pipeline"]>>();
    for (const [id, sets] of this.held) {
      for (const set of sets) {
        const tag = hashTagOf(set);
        let pipeline = pipelines.get(tag);
        if (!pipeline) pipelines.set(tag, (pipeline = this.redis.pipeline()));
        pipeline.zadd(set, expiry, id).pexpire(set, this.leaseMs);
      }
    }
    for (const pipeline of pipelines.values()) pipeline.exec().catch(() => undefined);
  }
}

function unavailable(): ServiceUnavailableError {
  return new ServiceUnavailableError("Rate limiting is unavailable (Redis is not answering); try again shortly");
}

/** The caps from the process configuration, on a fail-fast Redis client (`createRedis("request")`). */
export function createOpenRequests(redis: RedisClient): OpenRequests {
  return new OpenRequests(redis, {
    tiers: config.openRequests,
    prefix: accountKeys("open"),
    timeoutMs: config.rateLimits.redisTimeoutMs,
  });
}

/** A key's Redis Cluster hash tag (what decides its slot): the text between its first `{` and the next `}`. */
function hashTagOf(key: string): string {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}
