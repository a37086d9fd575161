import { config } from "../config";
import { luaScript } from "./lua-script";
import type { QueueName } from "./queue-names";
import type { RedisClient } from "./redis";
import { accountKeys, accountPrefix } from "./shards";

/**
 * Fair dispatch (docs/fair-dispatch.md). BullMQ takes a queue's jobs lowest priority first, first in
 * first out within one priority; a job's priority here is its *round*: an account's waiting runs
 * take consecutive rounds, `weight` runs a round, starting at the round the queue has reached. A
 * newcomer thus lands in the round being served, right behind one run of each account already
 * waiting, however long their backlogs, and each account's own runs keep their order (its rounds
 * never go down while it has runs waiting).
 *
 * The round the queue has reached is read from the queue itself (the lowest waiting priority of
 * the band), not counted, so crashes, cancels and retries cannot make it drift. When nothing of the
 * band waits, a new epoch starts and every account's rounds start afresh: an account is never
 * held back for runs that already started.
 */

/** Priority bands: every standard run is taken before any flex run (`service_tier: "flex"`). */
const BANDS = {
  standard: { first: 1, last: 2 ** 20 - 1 },
  flex: { first: 2 ** 20, last: 2 ** 21 - 1 },
} as const;
type Band = keyof typeof BANDS;

/** How long an account's round is remembered without new runs (its backlog has long drained by then). */
const STATE_TTL_MS = 24 * 3_600_000;

const assignRounds = luaScript(
  "apiaryFairRounds",
  `
local weight, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local first, last = tonumber(ARGV[3]), tonumber(ARGV[4])
-- BullMQ scores a prioritized job priority * 2^32 + its arrival counter.
local SHIFT = 4294967296
local head = redis.call('ZRANGEBYSCORE', KEYS[2], string.format('%.0f', first * SHIFT),
  '(' .. string.format('%.0f', (last + 1) * SHIFT), 'WITHSCORES', 'LIMIT', 0, 1)
local round, used
if head[2] == nil then
  -- Nothing of the band waits: a new epoch, every account starts at the first round.
  redis.call('INCR', KEYS[3])
  round, used = first, 0
else
  local reached = math.floor(tonumber(head[2]) / SHIFT)
  local epoch = redis.call('GET', KEYS[3]) or '0'
  local state = redis.call('HMGET', KEYS[1], 'epoch', 'round', 'used')
  if state[1] == epoch and tonumber(state[2]) >= reached then
    round, used = tonumber(state[2]), tonumber(state[3])
  else
    round, used = reached, 0
  end
end
local rounds = {}
for i = 1, count do
  if used >= weight and round < last then round, used = round + 1, 0 end
  used = used + 1
  rounds[i] = round
end
redis.call('HSET', KEYS[1], 'epoch', redis.call('GET', KEYS[3]) or '0', 'round', round, 'used', used)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return rounds
`,
);

/** Runs an account of this tier starts per round (`FAIR_WEIGHT_*`; unknown tiers get `free`'s). */
export function fairWeight(tier: string | undefined): number {
  const weights = config.queue.fairWeights;
  return tier !== undefined && Object.hasOwn(weights, tier) ? weights[tier] : weights.free;
}

/** Who is enqueuing and into what: the account, its tier's weight and the priority band. */
export interface FairTurn {
  accountId: string;
  weight: number;
  band: Band;
}

/**
 * BullMQ priorities for `count` new jobs of an account in a queue of its shard, in the order they
 * are to run: one Redis script, on keys of the account's shard (one cluster slot). `redis` is the
 * queues' own connection (`ShardedQueues.connection`), where BullMQ's scripts go: on the web's
 * pipelining request client, a script first sent by many requests in one tick can have its replies
 * shifted.
 */
export async function fairPriorities(
  redis: RedisClient,
  queue: QueueName,
  turn: FairTurn,
  count = 1,
): Promise<number[]> {
  const fair = `${accountKeys("fair")(turn.accountId)}:${queue}:${turn.band}`;
  const band = BANDS[turn.band];
  const rounds = await assignRounds(
    redis,
    [`${fair}:${turn.accountId}`, `${accountPrefix(turn.accountId)}:${queue}:prioritized`, `${fair}:epoch`],
    [turn.weight, count, band.first, band.last, STATE_TTL_MS],
  );
  return (rounds as (number | string)[]).map(Number);
}
