import { finite, SPEND_FIELDS } from "../../shared/limits/shared-spend";
import { luaScript } from "../../shared/queues/lua-script";
import type { RedisClient } from "../../shared/queues/redis";

const { tokens: T, cost: C, reserved: R } = SPEND_FIELDS;

/**
 * Reserves room for one LLM call in every pool at once, or in none: as much output as the
 * smallest room left allows (ceiling − spent − reserved by calls in flight), plus, in a pool that
 * holds prompts, the call's estimated prompt. A pool whose dollars are spent (counting the call's
 * per-agent charge), or whose tokens are (in a pool holding prompts: where the prompt no longer
 * fits), refuses the call; one whose room is all reserved by calls in flight says so (the caller
 * waits for them).
 * KEYS: the pools' hashes. ARGV: prompt estimate, output tokens wanted, the call's per-agent
 * charge in dollars, then per pool its token ceiling, dollar ceiling, whether it holds prompts
 * (1/0), ttl ms.
 * Reply: {0, output granted}, or {number of the pool, 1: tokens spent, 2: dollars spent, 3: room all reserved}.
 */
const RESERVE_LUA = `
local prompt, granted, charge = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local busy = 0
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, '${T}', '${C}', '${R}')
  local base = 3 + (i - 1) * 4
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
for i, key in ipairs(KEYS) do
  local base = 3 + (i - 1) * 4
  redis.call('HINCRBY', key, '${R}', prompt * tonumber(ARGV[base + 3]) + granted)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[base + 4]) end
end
return {0, granted}
`;

/**
 * Frees a call's reservation and charges what it spent, in every pool.
 * KEYS: the pools' hashes. ARGV: tokens spent, dollars spent, then per pool the tokens it had
 * reserved and its ttl ms.
 */
const SETTLE_LUA = `
for i, key in ipairs(KEYS) do
  -- 0 - x, not -x: Lua's -0 reaches Redis as "-0", which HINCRBY refuses
  redis.call('HINCRBY', key, '${R}', 0 - tonumber(ARGV[1 + i * 2]))
  redis.call('HINCRBY', key, '${T}', ARGV[1])
  redis.call('HINCRBYFLOAT', key, '${C}', ARGV[2])
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[2 + i * 2]) end
end
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

const reserveScript = luaScript("apiarySpendReserve", RESERVE_LUA);
const settleScript = luaScript("apiarySpendSettle", SETTLE_LUA);
const chargeScript = luaScript("apiarySpendCharge", CHARGE_LUA);

/** One counter a run's LLM calls draw from together with other runs (a request's, an account's day). */
export interface SpendPool {
  key: string;
  maxTokens: number;
  maxCost: number;
  /**
   * Whether a call's estimated prompt is held as well as its answer: a ceiling never to be passed
   * (a batch's), rather than one that stops runs once it is reached (an account's day).
   */
  holdsPrompts: boolean;
  /** How long Redis keeps the counter after its first use. */
  ttlMs: number;
  /** The message of a run the pool stops. */
  exhausted(measure: "tokens" | "cost"): string;
}

/** A call's reservation in the pools: its estimated prompt and the output granted. */
export interface PoolReservation {
  prompt: number;
  granted: number;
}

/**
 * The pools a run shares, kept in Redis so runs on any worker draw from the same counters. Each
 * call reserves its output cap (and, where a pool holds prompts, its estimated prompt) before it
 * starts and settles after, so calls running side by side (a batch's items on different workers)
 * never share out more than is left.
 */
export class SharedSpend {
  constructor(
    private readonly redis: RedisClient,
    readonly pools: SpendPool[],
  ) {}

  /**
   * Reserves a call's estimated `prompt` and up to `wanted` output tokens in every pool: the
   * output granted; the pool that is spent (in dollars: with no room for the call's per-agent
   * `charge`), and in what; or `busy` when calls in flight hold all the room left (it frees up as
   * they settle).
   */
  async reserve(
    prompt: number,
    wanted: number,
    charge = 0,
  ): Promise<{ granted: number } | { exhausted: SpendPool; measure: "tokens" | "cost" } | { busy: true }> {
    const perPool = this.pools.flatMap((p) => [
      Math.floor(finite(p.maxTokens)),
      finite(p.maxCost),
      p.holdsPrompts ? 1 : 0,
      p.ttlMs,
    ]);
    const [which, value] = (await reserveScript(this.redis, this.keys(), [
      Math.ceil(prompt),
      Math.floor(finite(wanted)),
      charge,
      ...perPool,
    ])) as [number, number];
    if (which === 0) return { granted: value };
    if (value === 3) return { busy: true };
    return { exhausted: this.pools[which - 1], measure: value === 1 ? "tokens" : "cost" };
  }

  /** Frees a reservation and charges what the call spent. */
  async settle(reservation: PoolReservation, tokens: number, cost: number): Promise<void> {
    const perPool = this.pools.flatMap((p) => [
      (p.holdsPrompts ? Math.ceil(reservation.prompt) : 0) + reservation.granted,
      p.ttlMs,
    ]);
    await settleScript(this.redis, this.keys(), [Math.round(tokens), cost, ...perPool]);
  }

  /** Counts a flat charge in every pool (a negative one: a refund); the pool it would take past its dollar ceiling, if any, which then counts nothing. */
  async charge(amount: number): Promise<SpendPool | null> {
    const perPool = this.pools.flatMap((p) => [finite(p.maxCost), p.ttlMs]);
    const refused = (await chargeScript(this.redis, this.keys(), [amount, ...perPool])) as number;
    return refused ? this.pools[refused - 1] : null;
  }

  private keys(): string[] {
    return this.pools.map((p) => p.key);
  }
}
