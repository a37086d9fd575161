import { SPEND_FIELDS } from "../../shared/limits/shared-spend";
import { luaScript } from "../../shared/queues/lua-script";

/* The Redis scripts behind `SharedSpend` (spend-pools.ts): each updates a run's pools in one step. */

const { tokens: T, cost: C, reserved: R } = SPEND_FIELDS;

/** What ends the in-flight hash's field that marks a call sent (`sentField` in spend-pools.ts). */
export const SENT_SUFFIX = ":sent";

/**
 * Reserves room for one LLM call in every pool at once, or in none: as much output as the
 * smallest room left allows (ceiling − spent − reserved by calls in flight), plus, in a pool that
 * holds prompts, the call's estimated prompt. A pool whose dollars are spent (counting the call's
 * per-agent charge), or whose tokens are (in a pool holding prompts: where the prompt no longer
 * fits), refuses the call; one whose room is all reserved by calls in flight says so (the caller
 * waits for them). A granted call is noted in its run's in-flight hash (its field: the call's
 * step; its value: the output granted, a space, then what the call is), so that if its worker
 * dies the job's retry finds it and bills it.
 * KEYS: the pools' hashes, then the run's in-flight hash. ARGV: prompt estimate, output tokens
 * wanted, the call's per-agent charge in dollars, the number of pools, then per pool its token
 * ceiling, dollar ceiling, whether it holds prompts (1/0), ttl ms; then the call's field (empty:
 * note nothing), what it is, and the in-flight hash's ttl ms.
 * Reply: {0, output granted}, or {number of the pool, 1: tokens spent, 2: dollars spent, 3: room all reserved}.
 */
const RESERVE_LUA = `
local prompt, granted, charge, pools = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local busy = 0
for i = 1, pools do
  local key = KEYS[i]
  local v = redis.call('HMGET', key, '${T}', '${C}', '${R}')
  local base = 4 + (i - 1) * 4
  local spent, ceiling = tonumber(v[1] or '0'), tonumber(ARGV[base + 1])
  local held = prompt * tonumber(ARGV[base + 3])
  if tonumber(v[2] or '0') + charge >= tonumber(ARGV[base + 2]) then return {i, 2} end
  if spent + held >= ceiling then return {i, 1} end
  local room = ceiling - spent - math.max(tonumber(v[3] or '0'), 0) - held
  if room <= 0 then
    if busy == 0 then busy = i end
  elseif room < granted then
    granted = room
  end
end
if busy > 0 then return {busy, 3} end
for i = 1, pools do
  local key = KEYS[i]
  local base = 4 + (i - 1) * 4
  redis.call('HINCRBY', key, '${R}', prompt * tonumber(ARGV[base + 3]) + granted)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[base + 4]) end
end
local call = 5 + pools * 4
if ARGV[call] ~= '' then
  redis.call('HSET', KEYS[pools + 1], ARGV[call], granted .. ' ' .. ARGV[call + 1])
  redis.call('PEXPIRE', KEYS[pools + 1], ARGV[call + 2])
end
return {0, granted}
`;

/**
 * Frees a call's reservation and charges what it spent, in every pool, and takes the call (its
 * note and its sent flag) out of its run's in-flight hash.
 * KEYS: the pools' hashes, then the run's in-flight hash. ARGV: tokens spent, dollars spent, the
 * number of pools, then per pool the tokens it had reserved and its ttl ms; then the call's field
 * in the in-flight hash (empty: none).
 */
const SETTLE_LUA = `
local pools = tonumber(ARGV[3])
for i = 1, pools do
  local key = KEYS[i]
  -- 0 - x, not -x: Lua's -0 reaches Redis as "-0", which HINCRBY refuses
  redis.call('HINCRBY', key, '${R}', 0 - tonumber(ARGV[2 + i * 2]))
  redis.call('HINCRBY', key, '${T}', ARGV[1])
  redis.call('HINCRBYFLOAT', key, '${C}', ARGV[2])
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[3 + i * 2]) end
end
local call = ARGV[4 + pools * 2]
if call ~= '' then redis.call('HDEL', KEYS[pools + 1], call, call .. '${SENT_SUFFIX}') end
return 1
`;

/**
 * Counts a flat charge (a tool fee, an image, an MCP call…) in every pool at once, or in none: a
 * pool it would take past its dollar ceiling refuses it. A negative amount (a refund) is never refused.
 * KEYS: the pools' hashes. ARGV: dollars, then per pool its dollar ceiling and ttl ms.
 * Reply: 0, or the number of the pool that refused.
 */
const CHARGE_LUA = `
local amount = tonumber(ARGV[1])
if amount > 0 then
  for i, key in ipairs(KEYS) do
    if tonumber(redis.call('HGET', key, '${C}') or '0') + amount > tonumber(ARGV[i * 2]) then return i end
  end
end
for i, key in ipairs(KEYS) do
  redis.call('HINCRBYFLOAT', key, '${C}', ARGV[1])
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[1 + i * 2]) end
end
return 0
`;

/**
 * Adds dollars to every pool whatever its ceiling: an adjustment of what was billed (a discount,
 * or taking one back), not a purchase to be refused.
 * KEYS: the pools' hashes. ARGV: dollars, then per pool its ttl ms.
 */
const ADJUST_LUA = `
for i, key in ipairs(KEYS) do
  redis.call('HINCRBYFLOAT', key, '${C}', ARGV[1])
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[1 + i]) end
end
return 0
`;

export const reserveScript = luaScript("apiarySpendReserveNoted", RESERVE_LUA);
export const settleScript = luaScript("apiarySpendSettleNoted", SETTLE_LUA);

export const chargeScript = luaScript("apiarySpendCharge", CHARGE_LUA);
export const adjustScript = luaScript("apiarySpendAdjust", ADJUST_LUA);
