import { config } from "../../shared/config";
import { finite } from "../../shared/limits/shared-spend";
import type { RedisClient } from "../../shared/queues/redis";
import { adjustScript, chargeScript, reserveScript, SENT_SUFFIX, settleScript } from "./spend-pool-scripts";

/** How long a run's in-flight hash outlives its last noted call: past any run's deadline. */
const IN_FLIGHT_TTL_MS = 48 * 3_600_000;

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

/** What the in-flight hash holds of a call besides its reservation's output. */
interface NotedCall extends InFlightCall {
  prompt: number;
  /** The execution that made it. */
  owner: string;
  /** Flat charges the pools were to count with the call's settlement (`CallAllowance.carried`). */
  carried: number;
  startedAt: string;
}

/** A call found in the in-flight hash: noted by an execution that never settled it (its worker died). */
export interface LeftInFlight extends NotedCall, PoolReservation {
  /** Whether the call had gone to the provider (it may wait for a slot under `LLM_MAX_IN_FLIGHT` first). */
  sent: boolean;
}

/** A granted call's entry in the in-flight hash, to mark it sent once it goes to the provider. */
export interface InFlightNote {
  step: string;
}

/** The hash of a run's calls in flight: in the pools' hash slot, so one script updates both. */
export function inFlightKey(runId: string, prefix = config.queue.prefix): string {
  return `${prefix}:spend:in-flight:${runId}`;
}

/**
 * The in-flight hash's field that marks a noted call sent, beside the call's own field (its step
 * key, which ends in `#<n>`, so the two never clash). A flag of its own: marking the call sent
 * writes a few bytes, not its whole note again.
 */
export function sentField(step: string): string {
  return `${step}${SENT_SUFFIX}`;
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
    /**
     * The run whose calls these are, the execution making them, and the key prefix of the run's
     * account's shard, where its pools are (`accountPrefix`).
     */
    private readonly execution: { runId: string; owner: string; prefix?: string } = { runId: "none", owner: "none" },
  ) {
    this.inFlight = inFlightKey(execution.runId, execution.prefix);
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
  ): Promise<
    { granted: number; note?: InFlightNote } | { exhausted: SpendPool; measure: "tokens" | "cost" } | { busy: true }
  > {
    const perPool = this.pools.flatMap((p) => [
      Math.floor(finite(p.maxTokens)),
      finite(p.maxCost),
      p.holdsPrompts ? 1 : 0,
      p.ttlMs,
    ]);
    const noted: NotedCall | null = call
      ? {
          ...call.what,
          prompt: Math.ceil(prompt),
          carried: call.carried,
          owner: this.execution.owner,
          // Not sent until it leaves for the provider (`markSent`, just before the request is made):
          // a worker dying before then, while the request is built or waits for a slot, owes nothing.
          startedAt: new Date().toISOString(),
        }
      : null;
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
        noted ? JSON.stringify(noted) : "",
        IN_FLIGHT_TTL_MS,
      ],
    )) as [number, number];
    if (which === 0) return { granted: value, ...(noted ? { note: { step: noted.step } } : {}) };
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
   * Marks a noted call as gone to the provider (`sentField`). Not awaited by the caller: the
   * settlement that takes it out of the hash follows on the same connection, so Redis sees the two
   * in order.
   */
  async markSent(note: InFlightNote): Promise<void> {
    await this.redis.hset(this.inFlight, sentField(note.step), 1);
  }

  /**
   * The calls an earlier execution of the run noted in flight and never settled: its worker died
   * while they waited for a slot (`sent` false) or the provider had them. Each is to be settled
   * (`settle` with its step), and billed if it was sent, once.
   */
  async leftInFlight(): Promise<LeftInFlight[]> {
    const noted = await this.redis.hgetall(this.inFlight);
    return Object.entries(noted).flatMap(([step, value]) => {
      if (step.endsWith(SENT_SUFFIX)) return [];
      const space = value.indexOf(" ");
      try {
        const call = JSON.parse(value.slice(space + 1)) as NotedCall & { sent?: unknown };
        if (call.owner === this.execution.owner) return [];
        // A note rewritten whole with `sent: true` is an older worker's way of marking it sent.
        const sent = Object.hasOwn(noted, sentField(step)) || call.sent === true;
        return [{ ...call, step, granted: Number(value.slice(0, space)), sent }];
      } catch {
        return []; // not ours to read: nothing to bill
      }
    });
  }

  /** Adds dollars (negative: takes them off) to every pool, never refused: a discount, or taking one back. */
  async adjust(amount: number): Promise<void> {
    await adjustScript(this.redis, this.keys(), [amount, ...this.pools.map((p) => p.ttlMs)]);
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
