import { luaScript } from "../../shared/queues/lua-script";
import type { RedisClient } from "../../shared/queues/redis";
import { finite, SPEND_FIELDS } from "../../shared/limits/shared-spend";

/**
 * One request's admission, decided and counted by Redis in one atomic step: the request is
 * admitted only when each of its six fixed windows (the key's and the account's minute, hour and
 * day) has room for all of its points and, for a request that starts runs, the account has spend
 * left today. Then every window counts all the points; otherwise none counts anything, so a
 * refused batch leaves the windows as they were and concurrent requests can never overshoot.
 *
 * KEYS: six window counters, then the account's spend hash of the day.
 * ARGV: points (0 reads without counting), six limits, six window lengths in ms, the token and
 * dollar ceilings of the spend (-1: not checked).
 * Reply: admitted (1/0), six counts, six ms-until-reset (negative: no window open), tokens and
 * dollars spent (as strings: Redis would truncate a Lua float).
 */
const ADMISSION_LUA = `
local points = tonumber(ARGV[1])
local counts, ttls = {}, {}
local admitted = 1
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
local reply = {admitted}
for i = 1, 6 do reply[1 + i] = counts[i] end
for i = 1, 6 do reply[7 + i] = ttls[i] end
reply[14] = tokens
reply[15] = cost
return reply
`;

const admissionScript = luaScript("apiaryAdmit", ADMISSION_LUA);

/** One counter the request is checked against. */
export interface CounterCheck {
  key: string;
  limit: number;
  windowMs: number;
}

export interface AdmissionCall {
  /** Exactly six: the key's minute, hour, day, then the account's. */
  counters: CounterCheck[];
  spendKey: string;
  /** Points to count; 0 reads the counters without counting. */
  points: number;
  /** Refuse once the spend reaches either ceiling; null: not checked (a request that starts no run). */
  spendCeiling: { tokens: number; cost: number } | null;
}

export interface AdmissionReply {
  admitted: boolean;
  /** Per counter, in call order: the count after this request, and ms until its window resets (negative: none open). */
  counts: number[];
  resetMs: number[];
  spent: { tokens: number; cost: number };
}

/** Runs the admission script. */
export async function runAdmission(redis: RedisClient, call: AdmissionCall): Promise<AdmissionReply> {
  const ceiling = call.spendCeiling;
  const reply = (await admissionScript(
    redis,
    [...call.counters.map((c) => c.key), call.spendKey],
    [
      call.points,
      ...call.counters.map((c) => c.limit),
      ...call.counters.map((c) => c.windowMs),
      finite(ceiling?.tokens ?? -1),
      finite(ceiling?.cost ?? -1),
    ],
  )) as (number | string)[];
  return {
    admitted: reply[0] === 1,
    counts: reply.slice(1, 7).map(Number),
    resetMs: reply.slice(7, 13).map(Number),
    spent: { tokens: Number(reply[13]), cost: Number(reply[14]) },
  };
}
