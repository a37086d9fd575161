import type { DataSource } from "typeorm";
import type { Run, RunOfKind } from "../../shared/db/entities/run.entity";
import type { SteppedKind } from "../../shared/runs/run-kind-catalog";
import type { RunCharge } from "../../shared/db/entities/run-charge.entity";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { loadCharges } from "../../shared/db/run-charge-store";
import { loadSteps } from "../../shared/db/run-step-store";
import type { FailureCause } from "../../shared/failure-cause";
import { countRun, type RunOutcome } from "../../shared/metrics/runs";
import type { RunEventWriter } from "../../shared/queues/run-events";
import type { UsageCounter } from "../agents/agent-context";
import { recordDiscount } from "../agents/run-charges";
import type { RunBudget } from "../agents/run-budget";
import { BudgetExceededError } from "../agents/call-allowance";
import type { StepRecorder } from "../agents/step-recorder";

/*
 * What a run's execution is made of (its kinds, its environment, how one kind executes) and the
 * pieces of its ending that `executeRun` (run-lifecycle.ts) calls: metrics, the agents and usage
 * a stopped run keeps, the work earlier attempts left.
 */

/**
 * The runs a worker executes itself, the kinds that take steps of their own (batch parents and
 * launches have their own handlers).
 */
export type ExecutedRun = RunOfKind<SteppedKind>;

/** What a run's execution gets: its row, and the run-wide recorder, budget, usage, signal and events. */
export interface RunEnv<R extends ExecutedRun> {
  run: R;
  recorder: StepRecorder;
  budget: RunBudget;
  usage: UsageCounter;
  signal: AbortSignal;
  events: RunEventWriter | null;
}

/** How one kind of run executes and is billed. */
export interface RunExecution<R extends ExecutedRun> {
  /** The kind of run this executes. */
  kind: R["kind"];
  /** Does the work; returns what to store as the run's output and usage. */
  execute(
    env: RunEnv<R>,
  ): Promise<{ output: NonNullable<R["output"]>; usage: NonNullable<R["usage"]>; log?: Record<string, unknown> }>;
  /** Usage to store when the run fails (what was spent until then). */
  usageSoFar(env: RunEnv<R>): R["usage"];
  /** The agent a failure is attributed to, when known. */
  failedAgent?(err: unknown, env: RunEnv<R>): string | undefined;
  /**
   * The output of a run its budget winds down (`on_exceeded: "wind_down"`), from what finished;
   * kinds without one fail at their budget whatever it says.
   */
  windDown?(env: RunEnv<R>): NonNullable<R["output"]>;
}

/** Whether the claimed run is of the kind this execution runs (the job's name says it should be). */
export function isRunFor<R extends ExecutedRun>(run: Run, how: RunExecution<R>): run is R {
  return run.kind === how.kind;
}

/** Counts a run that ended in the worker's metrics: from its start (its first attempt's) to now. */
export function countEnded(run: ExecutedRun, outcome: RunOutcome, cause?: FailureCause): void {
  const startedMs = (run.started_at ?? run.queued_at).getTime();
  countRun({
    kind: run.kind,
    swarmType: run.kind === "swarm" ? run.request.swarm_type : undefined,
    outcome,
    cause,
    seconds: Math.max(0, Date.now() - startedMs) / 1_000,
  });
}

/** How long a run that ended waits for the calls its ending cut off to be billed. */
export const CALLS_END_WITHIN_MS = 10_000;

/** The agents of a cancelled run, as its row keeps them. */
export function cancelledAgents(env: RunEnv<ExecutedRun>) {
  return env.recorder.outcomes.list("the run was cancelled");
}

/** The budget stop behind a run's failure: its own, or the one that failed a swarm agent's turn. */
export function budgetStopOf(err: unknown): BudgetExceededError | null {
  if (err instanceof BudgetExceededError) return err;
  const cause = (err as { budgetStop?: unknown } | null)?.budgetStop;
  return cause instanceof BudgetExceededError ? cause : null;
}

/** What earlier attempts of the job stored: the steps a retry replays (or bills) and the charges it made. */
export async function loadEarlierWork(
  ds: DataSource,
  runId: string,
): Promise<{ steps: RunStep[]; charges: RunCharge[] }> {
  const [steps, charges] = await Promise.all([loadSteps(ds, runId), loadCharges(ds, runId)]);
  return { steps, charges };
}

/**
 * What a run that stopped (failed, cancelled) spent: the pools hold its charges, its discount is
 * recorded, and its steps (the calls its stop cut off included) and charges are stored, before
 * anyone learns it ended. A store that fails is the next write's to report.
 */
export async function usageAtEnd<R extends ExecutedRun>(
  env: RunEnv<R>,
  how: RunExecution<R>,
  execution: string,
): Promise<R["usage"]> {
  await env.budget.close();
  const usage = how.usageSoFar(env);
  recordDiscount(env, execution);
  await env.recorder.flush().catch(() => undefined);
  return usage;
}

/**
 * What a run that parks for approval spent so far: the pools hold its charges and its steps are
 * stored (the continuation replays them), before the run is seen parked. Its discount waits for
 * its end, which records it once.
 */
export async function parkedUsage<R extends ExecutedRun>(env: RunEnv<R>, how: RunExecution<R>): Promise<R["usage"]> {
  await env.budget.close();
  const usage = how.usageSoFar(env);
  await env.recorder.flush();
  return usage;
}
