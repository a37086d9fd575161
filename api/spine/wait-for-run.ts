import type { Run } from "../../shared/db/entities/run.entity";
import { failRun } from "../../shared/db/runs/run-results";
import { findRun, isTerminal } from "../../shared/db/runs/run-rows";
import { ServiceUnavailableError } from "../../shared/errors";
import { addLogContext } from "../../shared/logger";
import { isDatabaseUnavailable } from "../../shared/unavailable";
import type { ApiDeps } from "../deps";

/**
 * Enqueues a stored run's job (closing the row if the queue refuses it, so it is not left queued
 * forever) and waits up to `waitMs` for the row to reach a final state. Listens before enqueueing,
 * so a fast job's completion cannot slip past. Null when nobody waits or the wait ran out.
 */
export function enqueueAndAwait(
  deps: ApiDeps,
  runId: string,
  enqueueJob: () => Promise<void>,
  waitMs: number | null,
): Promise<Run | null> {
  return watchRun(deps, runId, waitMs, async () => {
    try {
      await enqueueJob();
    } catch {
      await failRun(deps.ds, runId, { message: "The run could not be queued", code: "QUEUE_UNAVAILABLE" }).catch(
        () => undefined,
      );
      throw new ServiceUnavailableError("The job queue is unavailable; try again shortly");
    }
    return null;
  });
}

/**
 * Waits up to `waitMs` for a run that is already queued (an earlier request's) to end; one that
 * has ended is returned at once. Null when the wait ran out or nobody waits.
 */
export function awaitRun(deps: ApiDeps, runId: string, waitMs: number | null): Promise<Run | null> {
  return watchRun(deps, runId, waitMs, async () => {
    const row = await findRun(deps.ds, runId);
    return row && isTerminal(row.status) ? row : null;
  });
}

/**
 * Listens for a run's end, then does `first` (which may already find it ended) and waits up to
 * `waitMs` for the final row. Listening first means an end announced meanwhile is not missed. The
 * workers' notice carries the final row, so a run that ends in time costs no read; a slow poll of
 * the row covers notices Redis lost.
 */
async function watchRun(
  deps: ApiDeps,
  runId: string,
  waitMs: number | null,
  first: () => Promise<Run | null>,
): Promise<Run | null> {
  addLogContext({ runId });
  const watch = waitMs === null ? null : deps.waiter.watch(runId);
  try {
    const ended = await first();
    if (ended || !watch || waitMs === null) return ended;
    const finished = await watch.wait(async (announced) => {
      const row =
        announced && isTerminal(announced.status)
          ? announced
          : await findRun(deps.ds, runId).catch(keepWaitingIfDatabaseDown);
      return row && isTerminal(row.status) ? row : undefined;
    }, waitMs);
    return finished ?? null;
  } finally {
    watch?.close();
  }
}

/**
 * A wait outlives a Postgres restart: the run goes on in the worker, whose notice brings its final
 * row, and the next poll reads it once Postgres is back (at worst the wait ends in a 504 with the
 * job id). Any other error still ends the request.
 */
function keepWaitingIfDatabaseDown(err: unknown): null {
  if (isDatabaseUnavailable(err)) return null;
  throw err;
}
