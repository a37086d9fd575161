import { luaScript } from "../../shared/queues/lua-script";
import type { RedisClient } from "../../shared/queues/redis";
import { finite, SPEND_FIELDS } from "../../shared/limits/shared-spend";

/**
 * One request's admission, decided and counted by Redis in one atomic step: the request is
 * admitted only when, for a request that streams or waits, its key and its account each have an
 * open-request slot free; when each of its six fixed windows (the key's and the account's minute,
 * hour and day) has room for all of its points; and, for a request that starts runs, when the
 * account has spend left today. Then every window counts all the points and the slot is taken in
 * both lease sets; otherwise nothing is counted or taken, so a refused request leaves the windows
 * and the slots as they were and concurrent requests can never overshoot. A full open-request cap
 * is reported apart: it outranks the windows and the spend.
 *
 * KEYS: six window counters, the account's spend hash of the day, then (for a slot) the key's and
 * the account's lease sets (lease id → expiry in ms; expired leases are dropped first, so a web
 * process that died frees its slots by itself).
 * ARGV: points (0 reads without counting), six limits, six window lengths in ms, the token and
 * dollar ceilings of the spend (-1: not checked), then (for a slot) now, the lease's expiry, its
 * id, the key's cap, the account's cap, the sets' time to live (ms).
 * Reply: admitted (1/0), six counts, six ms-until-reset (negative: no window open), tokens and
 * dollars spent (as strings: Redis would truncate a Lua float), the slot (1 taken, 0 none asked or
 * not taken, -1 the key's cap is full, -2 the account's).
 */
const ADMISSION_LUA = `
local points = tonumber(ARGV[1])
local counts, ttls = {}, {}
local admitted = 1
local slot = 0
local leasing = #KEYS == 9
if leasing then
  redis.call('ZREMRANGEBYSCORE', KEYS[8], '-inf', ARGV[16])
  redis.call('ZREMRANGEBYSCORE', KEYS[9], '-inf', ARGV[16])
  if redis.call('ZCARD', KEYS[8]) >= tonumber(ARGV[19]) then slot = -1
  elseif redis.call('ZCARD', KEYS[9]) >= tonumber(ARGV[20]) then slot = -2 end
  if slot < 0 then admitted = 0 end
end
for i = 1, 6 do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  ttls[i] = redis.call('PTTL', KEYS[i])
  if counts[i] + points > tonumber(ARGV[1 + i]) then admitted = 0 end
end
local spent = redis.call('HMGET', KEYS[7], '${SPEND_FIELDS.tokens}', '${SPEND_FIELDS.cost}')
local tokens, cost = spent[1] or '0', spent[2] or '0'
local maxTokens, maxCost = tonumber(ARGV[14]), tonumber(ARGV[15])
if maxTokens >= 0 and (tonumber(tokens) >= maxTokens or tonumber(cost) >= maxCost) then admitted = 0 end
if admitted == 1 and points > 0 then
  for i = 1, 6 do
    counts[i] = redis.call('INCRBY', KEYS[i], points)
    if ttls[i] < 0 then
      ttls[i] = tonumber(ARGV[7 + i])
      redis.call('PEXPIRE', KEYS[i], ttls[i])
    end
  end
end
if admitted == 1 and leasing then
  for i = 8, 9 do
    redis.call('ZADD', KEYS[i], ARGV[17], ARGV[18])
    redis.call('PEXPIRE', KEYS[i], ARGV[21])
  end
  slot = 1
end
local reply = {admitted}
for i = 1, 6 do reply[1 + i] = counts[i] end
for i = 1, 6 do reply[7 + i] = ttls[i] end
reply[14] = tokens
reply[15] = cost
reply[16] = slot
return reply
`;

const admissionScript = luaScript("apiaryAdmit", ADMISSION_LUA);

/** One counter the request is checked against. */
export interface CounterCheck {
  key: string;
  limit: number;
  windowMs: number;
}

/** An open-request slot to take with the admission: one lease in the key's and the account's sets. */
export interface SlotClaim {
  /** The key's lease set, then the account's. */
  sets: [string, string];
  leaseId: string;
  /** When the lease lapses unless renewed (ms since the epoch); leases expired by `now` are dropped first. */
  now: number;
  expiresAt: number;
  perKey: number;
  perAccount: number;
  /** The sets' time to live (ms). */
  leaseMs: number;
}

export interface AdmissionCall {
  /** Exactly six: the key's minute, hour, day, then the account's. */
  counters: CounterCheck[];
  spendKey: string;
  /** Points to count; 0 reads the counters without counting. */
  points: number;
  /** Refuse once the spend reaches either ceiling; null: not checked (a request that starts no run). */
  spendCeiling: { tokens: number; cost: number } | null;
  /** The open-request slot to take; absent for a request that holds nothing open. */
  slot?: SlotClaim;
}

/** What became of the slot asked for: taken, not asked for (or not taken, another limit refused), or which cap is full. */
type SlotReply = "taken" | "none" | "key-full" | "account-full";

const SLOT_REPLIES: Record<number, SlotReply> = { 1: "taken", 0: "none", [-1]: "key-full", [-2]: "account-full" };

export interface AdmissionReply {
  admitted: boolean;
  /** Per counter, in call order: the count after this request, and ms until its window resets (negative: none open). */
  counts: number[];
  resetMs: number[];
  spent: { tokens: number; cost: number };
  slot: SlotReply;
}

/** Runs the admission script. */
export async function runAdmission(redis: RedisClient, call: AdmissionCall): Promise<AdmissionReply> {
  const ceiling = call.spendCeiling;
  const slot = call.slot;
  const reply = (await admissionScript(
    redis,
    [...call.counters.map((c) => c.key), call.spendKey, ...(slot ? slot.sets : [])],
    [
      call.points,
      ...call.counters.map((c) => c.limit),
      ...call.counters.map((c) => c.windowMs),
      finite(ceiling?.tokens ?? -1),
      finite(ceiling?.cost ?? -1),
      ...(slot ? [slot.now, slot.expiresAt, slot.leaseId, slot.perKey, slot.perAccount, slot.leaseMs] : []),
    ],
  )) as (number | string)[];
  return {
    admitted: reply[0] === 1,
    counts: reply.slice(1, 7).map(Number),
    resetMs: reply.slice(7, 13).map(Number),
    spent: { tokens: Number(reply[13]), cost: Number(reply[14]) },
    slot: SLOT_REPLIES[Number(reply[15])],
  };
}
