import { setTimeout as sleep } from "node:timers/promises";
import { config } from "../../config";
import type { ConfiguredProviderLimits } from "../../config/provider-limits";
import { FairSemaphore } from "../../concurrency/fair-semaphore";
import { logger } from "../../logger";
import { countProviderRateLimited, noteProviderWindowUse, observeProviderWait } from "../../metrics/provider-limits";
import { secondsSince } from "../../metrics/registry";
import { createRedis, type RedisClient } from "../../queues/redis";
import { shardOf, shardPrefixes } from "../../queues/shards";
import { settleTurn, takeTurn } from "./bucket-scripts";
import { providerKeyId } from "./key-id";
import { learnedWindowMs, reportedLimits, type ReportedWindow } from "./rate-limit-headers";

/** Where a call goes: its provider's name (metrics) and the key it is sent with. */
export interface LimitedTarget {
  provider: string;
  apiKey: string;
}

/** Who is waiting: the account whose line the call stands in and its weight (`FAIR_WEIGHT_*`). */
export interface TurnParty {
  id: string;
  weight: number;
}

/** A configured limit per window: a provider's per-minute limits, or a test's shorter window. */
export interface WindowLimits {
  requests: number;
  tokens: number;
  windowMs: number;
}

/** A call's turn, to be told what the call really used. */
export interface Turn {
  keyId: string;
  estimatedTokens: number;
}

/** How often a process writes what a key's answers report, when they pause nothing (per key). */
const REPORT_EVERY_MS = 1_000;

const perMinute = (limits: ConfiguredProviderLimits | undefined): WindowLimits | undefined =>
  limits && (limits.requestsPerMinute || limits.tokensPerMinute)
    ? { requests: limits.requestsPerMinute, tokens: limits.tokensPerMinute, windowMs: 60_000 }
    : undefined;

/**
 * Requests and tokens per window of each provider key, shared by every process through one Redis
 * hash per key (`bucket-scripts.ts`). A key is guarded once a limit is configured for its provider
 * or one of its answers reported one (or a 429); an unguarded key costs no Redis command at all.
 * Calls waiting for a guarded key's window stand in one line per account in this process, served
 * round-robin (`FairSemaphore` with one holder: the call asking Redis), so an account's backlog
 * delays another account's call by one turn; the waiting holds no slot of `LLM_MAX_IN_FLIGHT`.
 */
export class ProviderLimiter {
  private redis: RedisClient | undefined;
  private readonly gates = new Map<string, FairSemaphore>();
  /** Keys an answer reported limits for (or refused), by key id: the process asks Redis for them. */
  private readonly learned = new Set<string>();
  /** Tokens a key's calls used beyond their estimates (or below: negative), given with its next turn. */
  private readonly corrections = new Map<string, number>();
  private readonly reportedAt = new Map<string, number>();
  private readonly overrides = new Map<string, WindowLimits | undefined>();

  /**
   * `makeRedis` opens the limiter's connection: one of its own that queues commands while it
   * (re)connects, as a worker's do, and sends each script alone (ioredis's auto-pipelining mixes up
   * the replies of a script Redis has not cached yet).
   */
  /**
   * `maxPauseMs`: the longest a 429's `retry-after` pauses the key for every process, by default the
   * cap a retry's wait has (`LLM_RETRY_MAX_DELAY_MS`).
   */
  constructor(
    private readonly makeRedis: () => RedisClient = () => createRedis("blocking"),
    private readonly maxPauseMs: number = config.llm.retryMaxDelayMs,
  ) {}

  /** The Redis hash of a key: under a shard's prefix picked by the key's name, as an account's would be. */
  static hashKey(keyId: string): string {
    return `${shardPrefixes()[shardOf(keyId)]}:provider-limit:${keyId}`;
  }

  /** Replaces a provider's configured limits (tests use short windows; undefined: back to the configuration). */
  configure(provider: string, limits: WindowLimits | null | undefined): void {
    if (limits === undefined) this.overrides.delete(provider);
    else this.overrides.set(provider, limits ?? undefined);
  }

  private configured(provider: string): WindowLimits | undefined {
    return this.overrides.has(provider) ? this.overrides.get(provider) : perMinute(config.providerLimits[provider]);
  }

  /** The limiter's connection, opened on first use. */
  private async client(): Promise<RedisClient> {
    return (this.redis ??= this.makeRedis());
  }

  /**
   * Resolves when the call may go to the provider under its key's limits, its turn taken; null at
   * once when the key is unguarded (its tokens not even estimated). Rejects with the signal's
   * reason when it aborts first.
   */
  async awaitTurn(
    target: LimitedTarget,
    party: TurnParty,
    estimateTokens: () => number,
    signal?: AbortSignal,
  ): Promise<Turn | null> {
    const keyId = providerKeyId(target.apiKey);
    const limits = this.configured(target.provider);
    if (!limits && !this.learned.has(keyId)) return null;
    const start = performance.now();
    const estimatedTokens = estimateTokens();
    let gate = this.gates.get(keyId);
    if (!gate) this.gates.set(keyId, (gate = new FairSemaphore(1)));
    let release;
    try {
      release = await gate.acquire(party.id, party.weight, signal);
      for (;;) {
        const correction = this.corrections.get(keyId) ?? 0;
        const args = [
          estimatedTokens + correction,
          limits?.requests ?? 0,
          limits?.tokens ?? 0,
          limits?.windowMs ?? 60_000,
          "",
        ];
        const reply = await this.take(keyId, args);
        // Without Redis the call goes as it would have without limits: the provider still guards its key.
        if (!reply) return null;
        const [waitMs, requestUse, tokenUse] = reply;
        noteProviderWindowUse(target.provider, "requests", requestUse);
        noteProviderWindowUse(target.provider, "tokens", tokenUse);
        if (waitMs <= 0) {
          this.corrections.delete(keyId);
          return { keyId, estimatedTokens };
        }
        // The head of the line sleeps for the window while the others wait behind it in turn.
        await sleep(waitMs, undefined, { signal });
      }
    } finally {
      release?.();
      observeProviderWait(target.provider, secondsSince(start));
    }
  }

  private async take(keyId: string, args: (string | number)[]): Promise<number[] | null> {
    try {
      return (await takeTurn(await this.client(), [ProviderLimiter.hashKey(keyId)], args)) as number[];
    } catch (err) {
      logger.warn({ err }, "could not take a turn under a provider key's limits; the call goes unguarded");
      return null;
    }
  }

  /** Notes what a call really used against its estimate: the difference goes with the key's next turn. */
  settle(turn: Turn | null, usedTokens: number): void {
    if (!turn) return;
    const delta = usedTokens - turn.estimatedTokens;
    if (delta) this.corrections.set(turn.keyId, (this.corrections.get(turn.keyId) ?? 0) + delta);
  }

  /**
   * Learns from one provider answer: its `x-ratelimit-*` headers guard the key from now on (and are
   * written for every process at most once a second per key), a 429 pauses the key for every
   * process for its `retry-after`.
   */
  observe(target: LimitedTarget, status: number, headers: Headers): void {
    const reported = reportedLimits(status, headers);
    if (status === 429) countProviderRateLimited(target.provider);
    if (!reported.requests && !reported.tokens && status !== 429) return;
    const keyId = providerKeyId(target.apiKey);
    this.learned.add(keyId);
    const now = Date.now();
    if (!reported.retryAfterMs && now - (this.reportedAt.get(keyId) ?? 0) < REPORT_EVERY_MS) return;
    this.reportedAt.set(keyId, now);
    const limits = this.configured(target.provider);
    const window = (w: ReportedWindow | undefined) =>
      w ? [w.limit, w.remaining, w.resetMs, learnedWindowMs(w) ?? ""] : ["", "", "", ""];
    const args = [
      0,
      limits?.tokens ?? 0,
      limits?.windowMs ?? 60_000,
      ...window(reported.requests),
      ...window(reported.tokens),
      // The key pauses no longer than a retry would wait (`LLM_RETRY_MAX_DELAY_MS`, Retry-After's cap):
      // a provider asking for a minute must not park every account's calls past what the operator allows.
      Math.min(reported.retryAfterMs ?? 0, this.maxPauseMs),
      "",
    ];
    this.client()
      .then((redis) => settleTurn(redis, [ProviderLimiter.hashKey(keyId)], args))
      .catch((err: unknown) =>
        logger.warn({ err, provider: target.provider }, "could not record a provider's rate limits"),
      );
  }

  /** Forgets what this process learned of every key and its configured overrides (tests start afresh). */
  forgetLearned(): void {
    this.learned.clear();
    this.corrections.clear();
    this.reportedAt.clear();
    this.overrides.clear();
  }

  /** Closes the Redis connection, if one was opened. */
  async close(): Promise<void> {
    const redis = this.redis;
    this.redis = undefined;
    await redis?.quit();
  }
}

/** The process's limiter: every LLM call of every job of the process goes through it. */
export const providerLimiter = new ProviderLimiter();
