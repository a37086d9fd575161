import { createHash } from "node:crypto";
import calculateSlot from "cluster-key-slot";
import { config } from "../config";

/**
 * Account shards of the Redis keyspace. Every key of a run or an account (queue jobs, limits,
 * spend pools, run event streams, launch keys) starts with its account's shard prefix, a hash tag
 * of its own, so each Lua script and MULTI still touches one Redis Cluster slot while the accounts
 * spread over the cluster's masters. Shard 0 keeps `QUEUE_PREFIX` itself: a one-shard deployment
 * has exactly the keys it had before shards existed.
 */

/** Redis Cluster's slots; a cluster splits them into ranges, one per master. */
const SLOTS = 16_384;
/** The first hash tag of a prefix (Redis hashes the text between the first `{` and the next `}`). */
const HASH_TAG = /\{([^}]+)\}/;

/** The shard (0…shards-1) holding an account's keys: a stable hash of its id, the same in every process. */
export function shardOf(accountId: string, shards = config.queue.shards): number {
  if (shards <= 1) return 0;
  return createHash("sha256").update(accountId).digest().readUInt32BE(0) % shards;
}

/** The band of slots a slot falls in when the slot space is cut into `shards` equal bands. */
const bandOf = (slot: number, shards: number) => Math.floor((slot * shards) / SLOTS);
/**
 * Slots a shard's slot keeps from its band's edges: a cluster's masters split the slots about
 * evenly, not to the slot (`redis-cli` gives the first master 0–5460 of three), so a slot right at
 * an edge could fall to the neighbouring master.
 */
const EDGE_MARGIN = 16;
const wellInside = (slot: number, band: number, shards: number) =>
  bandOf(Math.max(0, slot - EDGE_MARGIN), shards) === band &&
  bandOf(Math.min(SLOTS - 1, slot + EDGE_MARGIN), shards) === band;

const withTag = (prefix: string, tag: string) => prefix.replace(HASH_TAG, `{${tag}}`);
/** Prefixes already worked out, by shard count and base prefix (each is asked for on every request). */
const computed = new Map<string, string[]>();

/**
 * The key prefix of every shard. Shard 0 is `prefix` unchanged; shard i's tag is the prefix's own
 * tag with `-s<i>-<n>` added, `n` the first number that puts its slot in band i (counted on from
 * shard 0's band) of the slot space cut into `shards` equal bands. A cluster whose masters own equal
 * slot ranges (as `redis-cli --cluster create` makes them) thus holds an equal share of the shards,
 * where tags left to chance could put several shards on one master and none on another.
 */
export function shardPrefixes(shards = config.queue.shards, prefix = config.queue.prefix): string[] {
  const cacheKey = `${shards}\n${prefix}`;
  const cached = computed.get(cacheKey);
  if (cached) return cached;
  const tag = HASH_TAG.exec(prefix)?.[1];
  if (tag === undefined) throw new Error(`The queue prefix ${prefix} has no hash tag`);
  const firstBand = bandOf(calculateSlot(prefix), shards);
  const prefixes = [prefix];
  for (let shard = 1; shard < shards; shard++) {
    const band = (firstBand + shard) % shards;
    let n = 0;
    while (!wellInside(calculateSlot(`{${tag}-s${shard}-${n}}`), band, shards)) n++;
    prefixes.push(withTag(prefix, `${tag}-s${shard}-${n}`));
  }
  computed.set(cacheKey, prefixes);
  return prefixes;
}

/** The key prefix of an account's shard: every key of the account and of its runs starts with it. */
export function accountPrefix(accountId: string | null): string {
  // A run without an account (none are made today) keeps shard 0, as every key did before shards.
  return accountId === null ? shardPrefixes()[0] : shardPrefixes()[shardOf(accountId)];
}

/**
 * Where a store's keys go: one fixed prefix (tests give one of their own), or one per account
 * (the deployment's: the account's shard prefix and the store's own part, as `accountKeys` makes).
 */
export type KeyPrefix = string | ((accountId: string) => string);

/** The prefix of an account's keys in a store. */
export const prefixFor = (prefix: KeyPrefix, accountId: string): string =>
  typeof prefix === "string" ? prefix : prefix(accountId);

/** A store's keys under each account's shard prefix, followed by `part` (e.g. `rl` for rate limits). */
export const accountKeys =
  (part: string): ((accountId: string) => string) =>
  (accountId) =>
    `${accountPrefix(accountId)}:${part}`;
