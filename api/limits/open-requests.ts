import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import type { RedisClient } from "../../shared/queues/redis";
import { accountKeys, prefixFor, type KeyPrefix } from "../../shared/queues/shards";
import type { SlotClaim } from "./admission-script";
import type { KeyOwner } from "../../shared/auth/api-keys";

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
 * Caps on the streams and synchronous waits each API key and each account hold open at once,
 * across every web process: leases in Redis sorted sets, checked and taken by the admission
 * script together with the rate limits (`claim` says what to take, `hold` keeps what was taken),
 * renewed while held (one pipeline per process every third of a lease) and removed when the
 * request ends. A stream or wait costs the process a socket and memory for up to `SYNC_WAIT_MS`,
 * so without a cap a few accounts could hold them all.
 */
export class OpenRequests {
  private readonly held = new Map<string, readonly string[]>();
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

  /**
   * The slot a request of the subject's would take: its lease in the key's and the account's sets
   * and the caps to check, for the admission script (`admission-script.ts`), which checks and takes
   * it together with the rate limits.
   */
  claim(subject: Pick<KeyOwner, "apiKeyId" | "userId" | "tier">): SlotClaim & { tier: string } {
    const caps = this.capsFor(subject.tier);
    const prefix = prefixFor(this.options.prefix, subject.userId);
    const now = Date.now();
    return {
      sets: [`${prefix}:key:${subject.apiKeyId}`, `${prefix}:account:${subject.userId}`],
      leaseId: randomUUID(),
      now,
      expiresAt: now + this.leaseMs,
      perKey: caps.perKey,
      perAccount: caps.perAccount,
      leaseMs: this.leaseMs,
      tier: caps.tier,
    };
  }

  /**
   * Holds a lease Redis took for a claim: renewed until released. A lease Redis took but never
   * handed here (its answer came after the time-out) is never renewed, and expires by itself.
   */
  hold(claim: SlotClaim): OpenRequestLease {
    const { leaseId, sets } = claim;
    this.held.set(leaseId, sets);
    this.renewer ??= setInterval(() => this.renew(), this.leaseMs / 3).unref();
    return { release: () => this.release(leaseId) };
  }

  /** A slot for one request, to be taken by its admission verdict and freed when it ends. */
  slot(): OpenRequestSlot {
    return new OpenRequestSlot(this);
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
    // An explicit pipeline, not a script: ioredis's scripts are unsafe on this pipelining client
    // when a second one is first used in a tick (docs/performance-changes.md).
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

/** The caps from the process configuration, on a fail-fast Redis client (`createRedis("request")`). */
export function createOpenRequests(redis: RedisClient): OpenRequests {
  return new OpenRequests(redis, {
    tiers: config.openRequests,
    prefix: accountKeys("open"),
  });
}

/** A key's Redis Cluster hash tag (what decides its slot): the text between its first `{` and the next `}`. */
function hashTagOf(key: string): string {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/**
 * A request's slot of its key's and account's open-request caps. The admission verdict takes it
 * (the rate limiter's, which one Redis script decides with the rate limits), and it is freed when
 * the request ends (`openRequestSlots` in `api/http/open-request-slot.ts`).
 */
export class OpenRequestSlot {
  private lease: OpenRequestLease | null = null;
  private ended = false;

  constructor(private readonly caps: OpenRequests) {}

  /** The caps to take a slot of: none once one is held or the request has ended. */
  get wanted(): OpenRequests | undefined {
    return this.lease || this.ended ? undefined : this.caps;
  }

  /** Keeps the slot a verdict took; frees it at once if the request ended meanwhile (its client left). */
  hold(lease: OpenRequestLease): void {
    if (this.ended) lease.release();
    else this.lease = lease;
  }

  /** Frees the slot, if one was taken. */
  end(): void {
    this.ended = true;
    this.lease?.release();
  }
}
