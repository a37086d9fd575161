import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "../../shared/errors";
import { roundCost } from "../../shared/llm/pricing";
import type { BudgetLimitKind } from "../../shared/metrics/runs";
import type { InFlightCall, LeftInFlight, SharedSpend } from "./spend-pools";

/** Limits of one run: wall time, tokens and dollars. */
export interface BudgetLimits {
  maxTokens: number;
  maxCost: number;
  deadline: number;
}

/** A run stopped because it would pass its budget. */
export class BudgetExceededError extends AppError {
  constructor(
    message: string,
    /** The ceiling reached (for `apiary_budget_stops_total`). */
    readonly limit: BudgetLimitKind,
  ) {
    super(400, "BUDGET_EXCEEDED", message);
  }
}

/** What one LLM call asks the budget for. */
export interface CallNeeds {
  /** Estimated prompt tokens (`estimatePromptTokens`). */
  prompt: number;
  /** The most output tokens it would use (the agent's `max_tokens`). */
  output: number;
  /** Dollars the call adds to the bill besides its tokens: its agent's per-agent charge, on the agent's first call. */
  charge?: number;
  /** What the call is, noted in flight in the pools so that a retry bills it if the worker dies during it. */
  call?: InFlightCall;
}

/** A flat charge the pools count with the run's next call (`withNextCall`), and how to take it off the bill. */
interface DeferredCharge {
  amount: number;
  undo: () => void;
}

/** Room granted to one LLM call: its output cap; its prompt and output stay reserved until it is charged or released. */
export interface CallAllowance {
  readonly maxTokens: number;
  readonly prompt: number;
  /** The call's per-agent charge, held until it is charged or released. */
  readonly charge: number;
  /** Flat charges the run counted before this call that the pools count with its settlement (`withNextCall`). */
  readonly carried: number;
  /** The call's step, as the pools noted it in flight (empty: not noted). */
  readonly step: string;
  settled: boolean;
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
      const allowance = await this.tryReserve(needs);
      if (allowance) return allowance;
      await sleep(Math.min(delayMs, Math.max(1, this.msLeft())), undefined, { signal });
    }
  }

  /** The call's allowance, or null when the room left is reserved by calls in flight. */
  private async tryReserve({ prompt, output, charge = 0, call }: CallNeeds): Promise<CallAllowance | null> {
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
      return { maxTokens: granted, prompt, charge, carried: carriedCost, step: call?.step ?? "", settled: false };
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

  /** Takes a discount the bill gives at the end off the pools the run shares (not off its own list-price count). */
  creditPools(amount: number): void {
    if (amount > 0) this.shared?.charge(-amount).catch(() => undefined);
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

  private settle(allowance: CallAllowance, tokens: number, cost: number): void {
    if (allowance.settled) return;
    allowance.settled = true;
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
