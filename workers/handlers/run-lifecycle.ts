import { withRetryModels } from "../../shared/runs/retry-models";
import type { Run } from "../../shared/db/entities/run.entity";
import { config } from "../../shared/config";
import { whenDatabaseAnswers } from "../../shared/db/outage-wait";
import { completeRun, completeRunWithLedger, failRun, recordCancelledUsage } from "../../shared/db/runs/run-results";
import { RunLeaseLostError } from "../../shared/db/runs/run-leases";
import { RunAbortedError } from "../../shared/llm/run-aborted";
import { countBudgetStop } from "../../shared/metrics/runs";
import { RunEventWriter } from "../../shared/queues/run-events";
import { jobOutcome } from "../../shared/queues/job-outcome";
import type { RunJobResult } from "../../shared/queues/registry";
import { plannedSteps } from "../../shared/swarms/planned-steps";
import { UsageCounter } from "../agents/agent-context";
import { budgetLimits, sharedPools } from "../agents/budget-limits";
import { billEarlierCalls } from "../agents/earlier-calls";
import { recordDiscount } from "../agents/run-charges";
import { RunBudget } from "../agents/run-budget";
import { BudgetExceededError } from "../agents/call-allowance";
import { SharedSpend } from "../agents/spend-pools";
import { StepRecorder } from "../agents/step-recorder";
import { withTruncations } from "../agents/truncation-notes";
import type { HandlerContext } from "./handler";
import { reportSteps } from "./job-progress";
import { failureCauseOf } from "../../shared/failure-cause";
import { isRunFailure, runErrorOf } from "./run-failure";
import { RunLease, RunLeasedError } from "./run-lease";
import { expireIfDue, parkedError, shownCalls } from "./run-parking";
import { ApprovalPendingError } from "../agents/approval-gate";
import { parkRun } from "../../shared/db/runs/run-approvals";
import { runSignal } from "./run-signal";
import { RunTrace } from "../tracing/run-trace";
import { accountPrefix } from "../../shared/queues/shards";
import {
  budgetStopOf,
  CALLS_END_WITHIN_MS,
  cancelledAgents,
  countEnded,
  isRunFor,
  usageAtEnd,
  parkedUsage,
  loadEarlierWork,
  type ExecutedRun,
  type RunEnv,
  type RunExecution,
} from "./run-execution";

/** A parked run's job ran: it fails the run at its deadline, or is delayed again (see run-parking.ts). */
async function endParked(run: Run, ctx: HandlerContext): Promise<RunJobResult> {
  const failed = await whenDatabaseAnswers(() => expireIfDue(ctx.ds, run), { signal: ctx.signal });
  // Decided or cancelled meanwhile: the job is delivered again at once, to run what the run is now.
  if (!failed) throw new RunLeasedError(run.id, 0);
  ctx.announce(failed);
  ctx.logger.warn({ runId: run.id }, "run reached its time limit while waiting for approval");
  return { runId: run.id, ...jobOutcome(failed) };
}

/** Frees the run for the job's retry (best effort: an unreleased lease simply runs out) and rethrows. */
function giveUp(lease: RunLease, err: unknown): never {
  lease.release().catch(() => undefined);
  throw err;
}

/**
 * The state machine every run job shares: claim the row under a lease (a finished or cancelled
 * run is left alone; one another delivery still executes makes this one wait), set up budget,
 * cancellation, streaming and step replay, execute, then record success or failure and announce
 * it. A cancelled run stays cancelled; a run past its deadline fails with BUDGET_EXCEEDED;
 * infrastructure errors are rethrown so BullMQ retries the job.
 */
export async function executeRun<R extends ExecutedRun>(
  runId: string,
  ctx: HandlerContext,
  how: RunExecution<R>,
): Promise<RunJobResult> {
  // Postgres being restarted delays each read and write here rather than failing the run.
  const durable = <T>(work: () => Promise<T>) => whenDatabaseAnswers(work, { signal: ctx.signal });
  const claimed = await durable(() => RunLease.claim(ctx.ds, runId, config.queue.lockMs));
  // Ended already (a duplicate delivery, or a job moved back to its queue without re-opening its
  // run): nothing runs, and the job ends the way the run did (see the worker pool).
  if ("ended" in claimed) {
    // A parked run's job runs at the run's deadline (or early, when delivered again): see run-parking.ts.
    if (claimed.ended?.status === "awaiting_approval") return await endParked(claimed.ended, ctx);
    return { runId, ...(claimed.ended ? jobOutcome(claimed.ended) : {}) };
  }
  const { lease } = claimed;
  // A client's retry may have given the agents that failed another model.
  const run = withRetryModels(claimed.run);
  if (!isRunFor(run, how)) giveUp(lease, new Error(`Run ${runId} is a ${run.kind} run, not ${how.kind}`));
  const earlier =
    run.attempts > 1
      ? await durable(() => loadEarlierWork(ctx.ds, runId)).catch((err) => giveUp(lease, err))
      : { steps: [], charges: [] };
  const request = run.request;
  const pools = sharedPools(request.budget, run);
  const budget = new RunBudget(
    budgetLimits(request.budget, run.started_at),
    pools.length
      ? new SharedSpend(ctx.redis, pools, { runId, owner: lease.owner, prefix: accountPrefix(run.user_id) })
      : null,
  );
  // What could throw is built before the run takes hold of its cancel tracking and signal, so a
  // failure here has only the lease to let go of (`giveUp`).
  let recorder: StepRecorder, events: RunEventWriter | null, planned: number | null;
  try {
    recorder = StepRecorder.forRun(ctx.ds, runId, earlier.steps, lease, earlier.charges);
    events = request.stream ? new RunEventWriter(ctx.redis, runId, undefined, accountPrefix(run.user_id)) : null;
    planned = plannedSteps(run.kind, request);
  } catch (err) {
    giveUp(lease, err);
  }
  const traced = RunTrace.start(run, ctx.tracedFrom ?? null);
  if (traced) recorder.traceTo(traced);
  const cancel = ctx.cancels.track(runId);
  const stop = runSignal(cancel, ctx.signal, budget, lease.signal);
  const env: RunEnv<R> = { run, budget, signal: stop.signal, events, usage: new UsageCounter(), recorder };
  reportSteps(env.recorder, ctx.job, planned);
  // A write refused for want of the lease (`RunLeaseLostError`), or a renewal that found it gone,
  // means another execution has the run: this one stops where it is, writing and announcing
  // nothing, and its job ends without failing, so the other's result is the run's.
  const takenOver = () => {
    ctx.logger.warn({ runId }, "run taken over by another delivery; this one stops without writing");
    return { runId };
  };
  // The run was cancelled (before its work ended, or as it finished or failed): the cancel stands,
  // and what the run spent and did is written to its cancelled row.
  const endCancelled = async (usage: R["usage"]): Promise<RunJobResult> => {
    let row: Run | null;
    try {
      row = await durable(() =>
        recordCancelledUsage(ctx.ds, runId, { usage, agents: cancelledAgents(env) }, lease.owner),
      );
    } catch (refused) {
      if (refused instanceof RunLeaseLostError) return takenOver();
      throw refused;
    }
    traced?.endedWith(row);
    countEnded(run, "cancelled");
    env.events?.emit({ type: "error", error: "The run was cancelled" });
    // Bull Board shows what the cancelled run spent, as its row does.
    return { runId, ...(row ? jobOutcome(row) : { status: "cancelled" }) };
  };
  try {
    // Calls earlier executions cut off, or had in flight when their worker died, are billed before any of this one's.
    if (run.attempts > 1) await billEarlierCalls(env);
    env.events?.emit({ type: "start" });
    const { output, usage, log } = await how.execute(env);
    recordDiscount(env, lease.owner);
    // The run's steps and charges are stored before or with its completion: whoever reads the
    // bill then finds the whole ledger behind it. Those not sent yet (the last call's) go with it.
    const unsaved = await env.recorder.unsaved();
    const result = { output: withTruncations(output, env.recorder.truncations), usage, ledger: unsaved.ledger };
    const completed = await durable(() => completeRunWithLedger(ctx.ds, runId, result, lease.owner));
    unsaved.stored(completed.stored);
    const finalRow = completed.row;
    if (!finalRow) return await endCancelled(usage); // cancelled as it finished
    countEnded(run, "succeeded");
    traced?.endedWith(finalRow);
    ctx.announce(finalRow);
    env.events?.emit({ type: "finish", usage });
    ctx.logger.info({ runId, replayed: env.recorder.replayed, ...log }, "run succeeded");
  } catch (caught) {
    if (caught instanceof RunLeaseLostError) lease.lose(caught);
    if (lease.signal.aborted) return takenOver();
    if (caught instanceof ApprovalPendingError && !env.signal.aborted) {
      // Work beside the gated call (a parallel turn) stops, billed what it consumed, before the run parks.
      stop.end(caught);
      await env.budget.callsEnded(CALLS_END_WITHIN_MS);
      const usage = await parkedUsage(env, how);
      let parked: Run | null;
      try {
        const pending = { since: new Date().toISOString(), tool_calls: caught.calls };
        parked = await durable(() => parkRun(ctx.ds, runId, pending, usage, lease.owner));
      } catch (refused) {
        if (refused instanceof RunLeaseLostError) return takenOver();
        throw refused;
      }
      if (!parked) return await endCancelled(usage); // cancelled as it parked
      env.events?.emit({ type: "awaiting_approval", tool_calls: shownCalls(caught.calls) });
      ctx.logger.info({ runId, tools: caught.calls.map((c) => c.name) }, "run awaits approval");
      throw parkedError(ctx.ds, parked);
    }
    let err = caught;
    const stoppedFromOutside = env.signal.aborted; // cancel, deadline, shutdown
    // Work still going beside what ended the run (a parallel turn, a handoff) stops, and the calls
    // it cut off are billed what they consumed before the run's bill is made.
    stop.end(caught);
    await env.budget.callsEnded(CALLS_END_WITHIN_MS);
    // Tool calls rethrow the signal's own reason, LLM calls a RunAbortedError: either way the signal tells.
    if (err instanceof RunAbortedError || stoppedFromOutside) {
      if (cancel.aborted) return await endCancelled(await usageAtEnd(env, how, lease.owner));
      if (ctx.signal?.aborted) giveUp(lease, err); // forced shutdown: the job goes back to the queue
      // A deadline that fell while a provider call was being retried says what the provider answered.
      const last = err instanceof RunAbortedError ? err.lastFailure : undefined;
      err = new BudgetExceededError(
        `The run reached its time limit${last ? ` while retrying a failed LLM call: ${last.message}` : ""}`,
        "time",
      );
    }
    if (!isRunFailure(err)) giveUp(lease, err); // infrastructure trouble: let BullMQ retry the job
    const error = runErrorOf(err, how.failedAgent?.(err, env));
    const usage = await usageAtEnd(env, how, lease.owner);
    const agents = env.recorder.outcomes.list(err.message);
    const stoppedAt = budgetStopOf(err);
    const woundDown = stoppedAt && request.budget?.on_exceeded === "wind_down" && how.windDown ? stoppedAt : null;
    let endedRow: Run | null;
    try {
      endedRow = woundDown
        ? await durable(() => {
            const incomplete = {
              reason: "budget_exceeded" as const,
              limit: woundDown.limit,
              message: woundDown.message,
              agents,
            };
            const output = withTruncations({ ...how.windDown!(env), incomplete }, env.recorder.truncations);
            return completeRun(ctx.ds, runId, output, usage, lease.owner);
          })
        : await durable(() => failRun(ctx.ds, runId, error, { usage, agents, owner: lease.owner }));
    } catch (refused) {
      if (refused instanceof RunLeaseLostError) return takenOver();
      throw refused;
    }
    if (stoppedAt) countBudgetStop(stoppedAt.limit);
    if (!endedRow) return await endCancelled(usage); // cancelled as it failed
    traced?.endedWith(endedRow);
    ctx.announce(endedRow);
    if (woundDown) {
      countEnded(run, "incomplete");
      env.events?.emit({ type: "finish", usage });
      ctx.logger.info({ runId, limit: woundDown.limit }, "run wound down at its budget");
    } else {
      const cause = failureCauseOf(err);
      countEnded(run, "failed", cause);
      env.events?.emit({ type: "error", error: error.message });
      // Only the service's own faults are errors: a run its request made fail is a warning.
      ctx.logger[cause === "service" ? "error" : "warn"]({ runId, cause, err: err.message }, "run failed");
    }
  } finally {
    void env.budget.close(); // a run that stopped before its first call (cancelled, handed back)
    stop.dispose();
    lease.stop();
    traced?.end();
    ctx.cancels.release(runId);
    await env.events?.flush();
  }
  return { runId };
}
