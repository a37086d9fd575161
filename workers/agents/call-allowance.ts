import { AppError } from "../../shared/errors";
import type { BudgetLimitKind } from "../../shared/metrics/runs";
import type { InFlightCall, InFlightNote } from "./spend-pools";

/* A run's limits, and what one LLM call asks of them and is granted (see `RunBudget`). */

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
  /**
   * The call is an earlier attempt's stored step the run replays: it costs nothing new, so it
   * reserves nothing (in the run or the pools) and is noted nowhere.
   */
  replay?: boolean;
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
  /** Its entry in the pools' in-flight hash, to mark it sent once it goes to the provider. */
  readonly note?: InFlightNote;
  /** A replayed step's: it reserved nothing, and settles nothing in the pools. */
  readonly replay?: boolean;
  settled: boolean;
}
