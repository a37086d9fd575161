import { setTimeout as sleep } from "node:timers/promises";
import { roundCost } from "../../shared/llm/pricing";
import { abortReason, RunAbortedError } from "../../shared/llm/run-aborted";
import { BudgetExceededError, type BudgetLimits, type CallAllowance, type CallNeeds } from "./call-allowance";
import type { LeftInFlight, SharedSpend } from "./spend-pools";

/** A flat charge the pools count with the run's next call (`withNextCall`), and how to take it off the bill. */
interface DeferredCharge {
  amount: number;
  undo: () => void;
}

/**
 * Counts what a run has spent and stops it before it passes a ceiling. Shared by every agent of a
 * run (handoffs and swarm members included), so the limits hold for the run as a whole; with
 * shared pools, its spend also counts against what it shares with other runs (the other items of
 * its batch, the rest of its account's day).
 *
 * Dollars count what the run's bill counts, at list price (night and flex discounts come off the
 * bill at the end): its calls' tokens, each agent's per-agent charge, and the flat charges
 * (`addCharge`: built-in tool fees, images, MCP calls, searches), each before the work it pays for.
 * A call needs its per-agent charge and some room left; a flat charge must fit whole, or it is
 * refused and the run stops, so flat charges never take a run past its `max_cost`.
 *
 * Every call reserves its estimated prompt and its output cap before it starts, so calls running
 * side by side (a swarm's parallel turns, a batch's items on other workers) cannot each be
 * granted the same remainder. The true prompt size is known only once the provider answers, so a
 * ceiling can be passed by what the estimates of the calls in flight fell short. (An account's
 * daily pool holds only answers: it stops runs once it is reached, see `SpendPool.holdsPrompts`.)
 */
export class RunBudget {
  tokens = 0;
  /** Dollars charged so far: calls (tokens and per-agent charges) and flat charges. */
  cost = 0;
  private reserved = 0;
  /** Dollars held by calls in flight (their per-agent charges) and by flat charges the pools are counting. */
  private heldCost = 0;
  /** Flat charges counted in this run's cost that the shared pools have not counted yet (`withNextCall`). */
  private unpooled: DeferredCharge[] = [];
  /** Calls granted room that have not been charged or released yet, and who waits for there to be none. */
  private outstanding = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly limits: BudgetLimits,
    private readonly shared: SharedSpend | null = null,
  ) {}

  /**
   * Reserves room for one call, or throws `BudgetExceededError` once the run (or a pool it shares)
   * has no room for the call's prompt and some answer, or its deadline passed. While calls in
   * flight hold the room left, it waits for them to settle (until the deadline, or `signal`
   * aborts): what they do not use is granted then.
   */
  async beforeCall(needs: CallNeeds, signal?: AbortSignal): Promise<CallAllowance> {
    for (let delayMs = 5; ; delayMs = Math.min(delayMs * 2, 250)) {
      // A run that has ended (cancelled, past its deadline, or stopped by what ended it) starts no call.
      if (signal?.aborted) throw new RunAbortedError(abortReason(signal));
      const allowance = await this.tryReserve(needs);
      if (allowance) {
        this.outstanding++;
        return allowance;
      }
      await sleep(Math.min(delayMs, Math.max(1, this.msLeft())), undefined, { signal });
    }
  }

  /** The call's allowance, or null when the room left is reserved by calls in flight. */
  private async tryReserve({ prompt, output, charge = 0, call, replay }: CallNeeds): Promise<CallAllowance | null> {
    if (replay) return { maxTokens: output, prompt: 0, charge: 0, carried: 0, step: "", replay, settled: false };
    const { maxTokens, maxCost, deadline } = this.limits;
    if (Date.now() >= deadline) throw new BudgetExceededError("The run reached its time limit", "time");
    if (this.cost >= maxCost) throw new BudgetExceededError(`The run reached its cost limit of $${maxCost}`, "cost");
    if (charge > 0 && roundCost(this.cost + this.heldCost + charge) >= maxCost) {
      throw new BudgetExceededError(
        `The run reached its cost limit of $${maxCost}: its next agent's per-agent charge ($${charge}) does not fit in what is left`,
        "cost",
      );
    }
    if (this.tokens >= maxTokens)
      throw new BudgetExceededError(`The run reached its limit of ${maxTokens} tokens`, "tokens");
    if (this.tokens + prompt >= maxTokens) {
      throw new BudgetExceededError(
        `The run reached its limit of ${maxTokens} tokens: its next call's prompt (about ${prompt} tokens) does not fit in what is left`,
        "tokens",
      );
    }
    const room = maxTokens - this.tokens - this.reserved - prompt;
    if (room <= 0) return null;
    let granted = Math.min(output, room);
    this.reserved += prompt + granted;
    this.heldCost += charge;
    if (!this.shared) return { maxTokens: granted, prompt, charge, carried: 0, step: "", settled: false };
    // The pools check the flat charges not counted yet with this call's, and count them when it settles.
    const carried = this.unpooled.splice(0);
    const carriedCost = carried.reduce((sum, c) => sum + c.amount, 0);
    try {
      const noted = call ? { what: call, carried: carriedCost } : undefined;
      const answer = await this.shared.reserve(prompt, granted, charge + carriedCost, noted);
      if ("exhausted" in answer) {
        // The pools have no room for the run: what it was to pay them for is not bought either.
        this.drop(carried.splice(0));
        throw new BudgetExceededError(answer.exhausted.exhausted(answer.measure), "shared");
      }
      if ("busy" in answer) {
        this.reserved -= prompt + granted;
        this.heldCost -= charge;
        this.unpooled.unshift(...carried);
        return null;
      }
      this.reserved -= granted - answer.granted;
      granted = answer.granted;
      return {
        maxTokens: granted,
        prompt,
        charge,
        carried: carriedCost,
        step: call?.step ?? "",
        note: answer.note,
        settled: false,
      };
    } catch (err) {
      this.reserved -= prompt + granted;
      this.heldCost -= charge;
      this.unpooled.unshift(...carried);
      throw err;
    }
  }

  /**
   * Counts a flat charge before the work it pays for, in the run and in every pool it shares, or
   * throws `BudgetExceededError` (counting it nowhere) when it does not fit whole in what is left.
   * `what` names it in the error. `withNextCall`: the pools check and count it with the run's next
   * LLM call instead of in a round trip of its own (or when the run ends, if it makes none), for a
   * charge every run has, such as an agent run's own agent.
   */
  async addCharge(
    amount: number,
    what: string,
    options: { withNextCall?: boolean; undo?: () => void } = {},
  ): Promise<void> {
    const { maxCost } = this.limits;
    if (roundCost(this.cost + this.heldCost + amount) > maxCost) {
      throw new BudgetExceededError(
        `The run reached its cost limit of $${maxCost}: ${what} ($${amount}) does not fit in what is left`,
        "cost",
      );
    }
    if (options.withNextCall) {
      this.cost += amount;
      if (this.shared) this.unpooled.push({ amount, undo: options.undo ?? (() => undefined) });
      return;
    }
    this.heldCost += amount;
    try {
      const refused = await this.shared?.charge(amount);
      if (refused) throw new BudgetExceededError(refused.exhausted("cost"), "shared");
      this.cost += amount;
    } finally {
      this.heldCost -= amount;
    }
  }

  /** Gives back a flat charge the run turned out not to owe (a search the provider did not answer). */
  refundCharge(amount: number): void {
    this.cost -= amount;
    this.shared?.charge(-amount).catch(() => undefined);
  }

  /**
   * Marks the call in the pools' in-flight hash as sent (billable if the worker dies from now on) as
   * its request is written: Redis hears it first, and a call that never left is never billed.
   */
  callSent(allowance: CallAllowance): void {
    if (allowance.note) this.shared?.markSent(allowance.note).catch(() => undefined);
  }

  /**
   * Applies a discount's ledger entry (negative; positive when a retry takes back part of an earlier
   * one) to the pools the run shares, never refused: not to its own list-price count.
   */
  adjustPools(amount: number): void {
    if (amount !== 0) this.shared?.adjust(amount).catch(() => undefined);
  }

  /** Counts a call an earlier attempt of the run's job made and billed (cut off, interrupted) in this run, not in the pools. */
  addReplayedCall(tokens: number, cost: number): void {
    this.tokens += tokens;
    this.cost += cost;
  }

  /**
   * Counts a flat charge an earlier attempt of the run's job made (negative: its refund) in this
   * run's cost, not in the pools, which counted it when it was made.
   */
  addReplayedCharge(amount: number): void {
    this.cost += amount;
  }

  /**
   * Charges a call that ended (finished, or cut off with what it consumed) and frees its
   * reservation: its tokens and their cost, and on its agent's first call the per-agent `fee`. A
   * replayed call or fee (a retried job reading what an earlier attempt stored) counts towards
   * this run again, but not in the shared pools: they counted it when it was first made.
   */
  charge(
    allowance: CallAllowance,
    call: { inputTokens: number; outputTokens: number; cost: number; replayed: boolean },
    fee: { amount: number; replayed: boolean } = { amount: 0, replayed: false },
  ): void {
    const tokens = call.inputTokens + call.outputTokens;
    this.tokens += tokens;
    this.cost += call.cost + fee.amount;
    const pooled = (call.replayed ? 0 : call.cost) + (fee.replayed ? 0 : fee.amount);
    this.settle(allowance, call.replayed ? 0 : tokens, pooled);
  }

  /** Frees the reservation of a call that made no answer (failed, aborted). */
  release(allowance: CallAllowance): void {
    this.settle(allowance, 0, 0);
  }

  /**
   * Has the pools count what the run counted for them to check with a call that never came (see
   * `withNextCall`): what they have no room for is taken off the run's bill, as a flat charge
   * that does not fit is never bought.
   */
  async close(): Promise<void> {
    const carried = this.unpooled.splice(0);
    if (!carried.length || !this.shared) return;
    const refused = await this.shared.charge(carried.reduce((sum, c) => sum + c.amount, 0)).catch(() => null);
    if (refused) this.drop(carried);
  }

  /** Takes deferred charges off the run's cost and its bill. */
  private drop(charges: DeferredCharge[]): void {
    for (const { amount, undo } of charges) {
      this.cost -= amount;
      undo();
    }
  }

  /**
   * Settles a call an earlier execution left in flight (its worker died): frees its reservation and
   * counts what it spent in the pools (with the flat charges it carried) and, unless the run
   * replays it as a stored step, in this run too.
   */
  settleLeftInFlight(call: LeftInFlight, tokens: number, cost: number, replayed: boolean): Promise<void> {
    if (!replayed) {
      this.tokens += tokens;
      this.cost += cost;
    }
    return this.shared?.settle(call, tokens, cost + call.carried, call.step) ?? Promise.resolve();
  }

  /** The pools this run shares, when it shares any. */
  get pools(): SharedSpend | null {
    return this.shared;
  }

  /** Milliseconds until the deadline (for aborting an in-flight call). */
  msLeft(): number {
    return Math.max(0, this.limits.deadline - Date.now());
  }

  /**
   * Resolves once every call granted room has been charged or released (at most `withinMs` later):
   * after the run's signal fired, the calls it cut off have then been billed what they consumed.
   */
  async callsEnded(withinMs: number): Promise<void> {
    if (this.outstanding === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      timer = setTimeout(resolve, withinMs);
    });
    clearTimeout(timer);
  }

  private settle(allowance: CallAllowance, tokens: number, cost: number): void {
    if (allowance.settled) return;
    allowance.settled = true;
    if (--this.outstanding === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    if (allowance.replay) return;
    this.reserved -= allowance.prompt + allowance.maxTokens;
    this.heldCost -= allowance.charge;
    // Not awaited: Redis runs one connection's commands in order, so the run's next reservation
    // already sees this charge. A charge lost to a Redis failure under-counts this one call. The
    // flat charges it carried are owed whatever became of the call.
    this.shared
      ?.settle(
        { prompt: allowance.prompt, granted: allowance.maxTokens },
        tokens,
        cost + allowance.carried,
        allowance.step,
      )
      .catch(() => undefined);
  }
}
