import { setTimeout as sleep } from "node:timers/promises";
import type { DataSource } from "typeorm";
import type { Run } from "../shared/db/entities/run.entity";
import { whenDatabaseAnswers } from "../shared/db/outage-wait";
import { failRun, findRun, isTerminal } from "../shared/db/run-store";

const ABANDONED = { message: "The run could not be completed after several attempts", code: "RUN_ABANDONED" };

/** Past a lease's end, how long to wait before looking again: its holder renews it well before. */
const AFTER_LEASE_MS = 250;

/**
 * Fails the run of a job that is out of attempts (`RUN_ABANDONED`), unless an execution still
 * holds a live lease on it: BullMQ gives a job up when its lock was lost too often, which a long
 * event-loop stall can cause while the execution holding the run is alive and about to finish.
 * That execution keeps the run; if its lease lapses without the run ending (it died), the run is
 * failed then. Returns the failed row, or null when the run ended otherwise.
 */
export async function failAbandonedRun(ds: DataSource, runId: string): Promise<Run | null> {
  for (;;) {
    const failed = await whenDatabaseAnswers(() => failRun(ds, runId, ABANDONED, { unlessLeased: true }));
    if (failed) return failed;
    const run = await whenDatabaseAnswers(() => findRun(ds, runId));
    if (!run || isTerminal(run.status) || !run.lease_until) return null;
    const waitMs = new Date(run.lease_until).getTime() - Date.now() + AFTER_LEASE_MS;
    // Unref'd: a worker shutting down does not wait for a run another process holds.
    await sleep(Math.max(AFTER_LEASE_MS, waitMs), undefined, { ref: false });
  }
}
