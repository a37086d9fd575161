import { setTimeout as sleep } from "node:timers/promises";
import type { DataSource } from "typeorm";
import type { RunBudgetRequest } from "../shared/contracts/agent-spec";
import type { Run } from "../shared/db/entities/run.entity";
import { whenDatabaseAnswers } from "../shared/db/outage-wait";
import { failRun } from "../shared/db/runs/run-results";
import { findRun, isTerminal } from "../shared/db/runs/run-rows";
import { countRun } from "../shared/metrics/runs";
import { budgetLimits } from "./agents/budget-limits";

const ABANDONED = { message: "The run could not be completed after several attempts", code: "RUN_ABANDONED" };

/** Past a lease's end, how long to wait before looking again: its holder renews it well before. */
const AFTER_LEASE_MS = 250;

/** Past a run's own time limit, how long a live execution has to write its end before the run is failed anyway. */
const AFTER_DEADLINE_MS = 60_000;

/**
 * Fails the run of a job that is out of attempts (`RUN_ABANDONED`), unless an execution still
 * holds a live lease on it: BullMQ gives a job up when its lock was lost too often, which a long
 * event-loop stall can cause while the execution holding the run is alive and about to finish.
 * That execution keeps the run; if its lease lapses without the run ending (it died), the run is
 * failed then. A lease still renewed a minute past the run's own time limit belongs to an
 * execution that is stuck (a live one stops at that limit), and the run is failed whoever holds
 * it; so is a run still waited for when `signal` aborts (the worker shutting down), since nothing
 * would fail it after. Returns the failed row, or null when the run ended otherwise.
 */
export async function failAbandonedRun(ds: DataSource, runId: string, signal?: AbortSignal): Promise<Run | null> {
  const failAnyway = () => whenDatabaseAnswers(() => failRun(ds, runId, ABANDONED));
  for (;;) {
    const failed = await whenDatabaseAnswers(() => failRun(ds, runId, ABANDONED, { unlessLeased: true }));
    if (failed) return failed;
    const run = await whenDatabaseAnswers(() => findRun(ds, runId));
    if (!run || isTerminal(run.status)) return null;
    if (!run.lease_until) continue; // let go of since the failed try: the next one fails it
    const { budget } = (run.request ?? {}) as { budget?: RunBudgetRequest };
    const giveUpAt = budgetLimits(budget, run.started_at).deadline + AFTER_DEADLINE_MS;
    if (Date.now() >= giveUpAt || signal?.aborted) return failAnyway();
    const leaseEnds = new Date(run.lease_until).getTime() + AFTER_LEASE_MS;
    const waitMs = Math.max(AFTER_LEASE_MS, Math.min(leaseEnds, giveUpAt) - Date.now());
    // Unref'd: a worker shutting down does not wait for a run another process holds.
    const stopped = await sleep(waitMs, false, { ref: false, signal }).catch(() => true);
    if (stopped) return failAnyway();
  }
}

/** Counts a run failed for running out of attempts as a failure of the service's (`apiary_runs_total`). */
export function countAbandonedRun(run: Run): void {
  const seconds = run.execution_time ?? 0;
  const swarmType = run.kind === "swarm" ? run.request.swarm_type : undefined;
  countRun({ kind: run.kind, swarmType, outcome: "failed", cause: "service", seconds });
}
