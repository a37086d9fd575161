import { config } from "../../shared/config";
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
 * Frees a call's reservation and charges what it spent, in every pool, and takes the call out of
 * its run's in-flight hash.
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
if call ~= '' then redis.call('HDEL', KEYS[pools + 1], call) end
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

const reserveScript = luaScript("apiarySpendReserveNoted", RESERVE_LUA);
const settleScript = luaScript("apiarySpendSettleNoted", SETTLE_LUA);

/** How long a run's in-flight hash outlives its last noted call: past any run's deadline. */
const IN_FLIGHT_TTL_MS = 48 * 3_600_000;
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

/** An LLM call as its run's in-flight hash notes it while the call is with the provider. */
export interface InFlightCall {
  /** The key of the step the call makes. */
  step: string;
  agentName: string;
  role: string;
  model: string;
  provider: string | null;
}

/** A call found in the in-flight hash: noted by an execution that never settled it (its worker died). */
export interface LeftInFlight extends InFlightCall, PoolReservation {
  /** The execution that made it. */
  owner: string;
  /** Flat charges the pools were to count with the call's settlement (`CallAllowance.carried`). */
  carried: number;
  startedAt: string;
}

/** The hash of a run's calls in flight: in the pools' hash slot, so one script updates both. */
export function inFlightKey(runId: string, prefix = config.queue.prefix): string {
  return `${prefix}:spend:in-flight:${runId}`;
}

/**
 * The pools a run shares, kept in Redis so runs on any worker draw from the same counters. Each
 * call reserves its output cap (and, where a pool holds prompts, its estimated prompt) before it
 * starts and settles after, so calls running side by side (a batch's items on different workers)
 * never share out more than is left.
 */
export class SharedSpend {
  private readonly inFlight: string;

  constructor(
    private readonly redis: RedisClient,
    readonly pools: SpendPool[],
    /** The run whose calls these are, and the execution making them. */
    private readonly execution: { runId: string; owner: string } = { runId: "none", owner: "none" },
  ) {
    this.inFlight = inFlightKey(execution.runId);
  }

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
    call?: { what: InFlightCall; carried: number },
  ): Promise<{ granted: number } | { exhausted: SpendPool; measure: "tokens" | "cost" } | { busy: true }> {
    const perPool = this.pools.flatMap((p) => [
      Math.floor(finite(p.maxTokens)),
      finite(p.maxCost),
      p.holdsPrompts ? 1 : 0,
      p.ttlMs,
    ]);
    const noted = call
      ? JSON.stringify({
          ...call.what,
          prompt: Math.ceil(prompt),
          carried: call.carried,
          owner: this.execution.owner,
          startedAt: new Date().toISOString(),
        })
      : "";
    const [which, value] = (await reserveScript(
      this.redis,
      [...this.keys(), this.inFlight],
      [
        Math.ceil(prompt),
        Math.floor(finite(wanted)),
        charge,
        this.pools.length,
        ...perPool,
        call?.what.step ?? "",
        noted,
        IN_FLIGHT_TTL_MS,
      ],
    )) as [number, number];
    if (which === 0) return { granted: value };
    if (value === 3) return { busy: true };
    return { exhausted: this.pools[which - 1], measure: value === 1 ? "tokens" : "cost" };
  }

  /** Frees a reservation and charges what the call spent; `step`: the call's field in the in-flight hash. */
  async settle(reservation: PoolReservation, tokens: number, cost: number, step = ""): Promise<void> {
    const perPool = this.pools.flatMap((p) => [
      (p.holdsPrompts ? Math.ceil(reservation.prompt) : 0) + reservation.granted,
      p.ttlMs,
    ]);
    await settleScript(
      this.redis,
      [...this.keys(), this.inFlight],
      [Math.round(tokens), cost, this.pools.length, ...perPool, step],
    );
  }

  /**
   * The calls an earlier execution of the run noted in flight and never settled: its worker died
   * while the provider had them. Each is to be billed and settled (`settle` with its step) once.
   */
  async leftInFlight(): Promise<LeftInFlight[]> {
    const noted = await this.redis.hgetall(this.inFlight);
    return Object.entries(noted).flatMap(([step, value]) => {
      const space = value.indexOf(" ");
      try {
        const call = JSON.parse(value.slice(space + 1)) as Omit<LeftInFlight, "granted">;
        return call.owner === this.execution.owner ? [] : [{ ...call, step, granted: Number(value.slice(0, space)) }];
      } catch {
        return []; // not ours to read: nothing to bill
      }
    });
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
