import { AppError } from "../../shared/errors";

/** Limits of one run: wall time, tokens and dollars. */
export interface BudgetLimits {
  maxTokens: number;
  maxCost: number;
  deadline: number;
}

/** A run stopped because it would pass its budget. */
export class BudgetExceededError extends AppError {
  constructor(message: string) {
    super(400, "BUDGET_EXCEEDED", message);
  }
}

/**
 * Counts what a run has spent and stops it before it passes a ceiling. Shared by every agent of a
 * run (handoffs and swarm members included), so the limits hold for the run as a whole.
 */
export class RunBudget {
  tokens = 0;
  cost = 0;

  constructor(readonly limits: BudgetLimits) {}

  /** Throws when no further LLM call fits; returns the most output tokens the next call may use. */
  beforeCall(): number {
    if (Date.now() >= this.limits.deadline) throw new BudgetExceededError("The run reached its time limit");
    if (this.cost >= this.limits.maxCost) throw new BudgetExceededError(`The run reached its cost limit of $${this.limits.maxCost}`);
    const left = this.limits.maxTokens - this.tokens;
    if (left <= 0) throw new BudgetExceededError(`The run reached its limit of ${this.limits.maxTokens} tokens`);
    return left;
  }

  charge(inputTokens: number, outputTokens: number, cost: number): void {
    this.tokens += inputTokens + outputTokens;
    this.cost += cost;
  }

  /** Milliseconds until the deadline (for aborting an in-flight call). */
  msLeft(): number {
    return Math.max(0, this.limits.deadline - Date.now());
  }
}
