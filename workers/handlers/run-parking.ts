import type { DataSource } from "typeorm";
import type { PendingToolCall } from "../../shared/approvals/approval-gates";
import type { Run } from "../../shared/db/entities/run.entity";
import { expireParkedRun, isParked } from "../../shared/db/runs/run-approvals";
import { countBudgetStop } from "../../shared/metrics/runs";
import { BudgetExceededError } from "../agents/call-allowance";
import { budgetLimits } from "../agents/budget-limits";
import { runErrorOf } from "./run-failure";

/**
 * Thrown once a run has parked in `awaiting_approval`: its job leaves the worker as a delayed job
 * due at the run's deadline (worker-pool.ts), so it holds no worker slot while it waits. A decision
 * promotes the job at once; left undecided, it runs at the deadline and fails the run.
 */
export class RunParkedError extends Error {
  constructor(
    readonly runId: string,
    /** When the delayed job is due: the run's deadline. */
    readonly untilMs: number,
    /** Whether the run still waits (false: a decision came while the job was being delayed). */
    readonly stillParked: () => Promise<boolean>,
  ) {
    super(`Run ${runId} awaits approval`);
    this.name = "RunParkedError";
  }
}

/** The deadline of a run (its time limit from its first start): a parked run fails there. */
function parkedUntil(run: Run): number {
  const { budget } = (run.request ?? {}) as { budget?: Parameters<typeof budgetLimits>[0] };
  return budgetLimits(budget, run.started_at).deadline;
}

/** The error a parked run parks with, for the worker pool to delay its job. */
export function parkedError(ds: DataSource, run: Run): RunParkedError {
  return new RunParkedError(run.id, parkedUntil(run), () => isParked(ds, run.id));
}

/** The pending calls a parked run's stream frame and log show (never the steps' keys). */
export function shownCalls(calls: PendingToolCall[]) {
  return calls.map(({ id, agent_name, name, arguments: args }) => ({ id, agent_name, name, arguments: args }));
}

/**
 * The job of a parked run ran: at its deadline, the run fails at its time limit (its spend was
 * settled when it parked); before it (a delivery that came early), the job is delayed again.
 * Null when the run is not parked any more (a decision or a cancel came meanwhile).
 */
export async function expireIfDue(ds: DataSource, run: Run): Promise<Run | null> {
  const until = parkedUntil(run);
  if (Date.now() < until) throw parkedError(ds, run);
  const limit = new BudgetExceededError("The run reached its time limit while waiting for approval", "time");
  const failed = await expireParkedRun(ds, run.id, runErrorOf(limit));
  if (failed) countBudgetStop("time");
  return failed;
}
