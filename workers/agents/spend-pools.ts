import { SPEND_FIELDS } from "../../shared/limits/shared-spend";
import { luaScript } from "../../shared/queues/lua-script";
import type { RedisClient } from "../../shared/queues/redis";

const { tokens: T, cost: C, reserved: R } = SPEND_FIELDS;

/**
 * Reserves output tokens for one LLM call in every pool at once, or in none: the grant is the
 * smallest room left (ceiling − spent − reserved by calls in flight). A pool whose tokens or
 * dollars are spent refuses the call; one whose room is all reserved by calls in flight says so.
 * KEYS: the pools' hashes. ARGV: tokens wanted, then per pool its token ceiling, dollar ceiling, ttl ms.
 * Reply: {0, granted}, or {number of the pool, 1: tokens spent, 2: dollars spent, 3: room all reserved}.
 */
const RESERVE_LUA = `
local granted = tonumber(ARGV[1])
local busy = 0
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, '${T}', '${C}', '${R}')
  local base = 1 + (i - 1) * 3
  local spent, ceiling = tonumber(v[1] or '0'), tonumber(ARGV[base + 1])
  if tonumber(v[2] or '0') >= tonumber(ARGV[base + 2]) then return {i, 2} end
  if spent >= ceiling then return {i, 1} end
  local room = ceiling - spent - math.max(tonumber(v[3] or '0'), 0)
  if room <= 0 then
    if busy == 0 then busy = i end
  elseif room < granted then
    granted = room
  end
end
if busy > 0 then return {busy, 3} end
for i, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, '${R}', granted)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[1 + (i - 1) * 3 + 3]) end
end
return {0, granted}
`;

/**
 * Frees a call's reservation and charges what it spent, in every pool.
 * KEYS: the pools' hashes. ARGV: tokens reserved, tokens spent, dollars spent, then each pool's ttl ms.
 */
const SETTLE_LUA = `
for i, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, '${R}', -tonumber(ARGV[1]))
  redis.call('HINCRBY', key, '${T}', ARGV[2])
  redis.call('HINCRBYFLOAT', key, '${C}', ARGV[3])
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[3 + i]) end
end
return 1
`;

const reserveScript = luaScript("apiarySpendReserve", RESERVE_LUA);
const settleScript = luaScript("apiarySpendSettle", SETTLE_LUA);

/** One counter a run's LLM calls draw from together with other runs (a request's, an account's day). */
export interface SpendPool {
  key: string;
  maxTokens: number;
  maxCost: number;
  /** How long Redis keeps the counter after its first use. */
  ttlMs: number;
  /** The message of a run the pool stops. */
  exhausted(measure: "tokens" | "cost"): string;
}

/** A number Lua can read back (it may not parse "Infinity"). */
function finite(value: number): number {
  return Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
}

/**
 * The pools a run shares, kept in Redis so runs on any worker draw from the same counters. Each
 * call reserves its output cap before it starts and settles after, so calls running side by side
 * (a batch's items on different workers) never share out more output than is left.
 */
export class SharedSpend {
  constructor(
    private readonly redis: RedisClient,
    readonly pools: SpendPool[],
  ) {}

  /**
   * Reserves up to `wanted` output tokens in every pool: the grant; the pool that is spent, and
   * in what; or `busy` when calls in flight hold all the room left (it frees up as they settle).
   */
  async reserve(wanted: number): Promise<{ granted: number } | { exhausted: SpendPool; measure: "tokens" | "cost" } | { busy: true }> {
    const args = [Math.floor(finite(wanted)), ...this.pools.flatMap((p) => [Math.floor(finite(p.maxTokens)), finite(p.maxCost), p.ttlMs])];
    const [which, value] = (await reserveScript(this.redis, this.pools.map((p) => p.key), args)) as [number, number];
    if (which === 0) return { granted: value };
    if (value === 3) return { busy: true };
    return { exhausted: this.pools[which - 1], measure: value === 1 ? "tokens" : "cost" };
  }

  /** Frees a reservation and charges what the call spent. */
  async settle(reserved: number, tokens: number, cost: number): Promise<void> {
    await settleScript(this.redis, this.pools.map((p) => p.key), [reserved, Math.round(tokens), cost, ...this.pools.map((p) => p.ttlMs)]);
  }
}
