import { newRunId } from "../../shared/db/run-id";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { Run, RunKind, RunOfKind } from "../../shared/db/entities/run.entity";
import {
  confirmRunStored,
  deleteQueuedRun,
  failRun,
  findRun,
  insertRun,
  isTerminal,
  type NewRun,
} from "../../shared/db/run-store";
import { config } from "../../shared/config";
import { AppError, ServiceUnavailableError } from "../../shared/errors";
import { describeJob } from "../../shared/queues/job-description";
import { enqueue } from "../../shared/queues/queues";
import { addLogContext } from "../../shared/logger";
import { isDatabaseUnavailable } from "../../shared/unavailable";
import type { JobName } from "../../shared/queues/registry";
import { sealRunSecrets, type WithheldSecret } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { presentStoppedRun } from "./presenters/stopped-run.presenter";
import { retryHint } from "../reply";

/**
 * How the client wants a run request answered: at once (`Prefer: respond-async`), or after waiting
 * up to `waitMs` (its `Prefer: wait`, or the time-out it announced, whichever is sooner).
 */
export interface Prefer {
  respondAsync: boolean;
  waitMs: number | null;
}

/** How long a synchronous request waits: the client's `Prefer: wait`, never above `SYNC_WAIT_MS`; null when it does not. */
export function syncWaitMs(prefer: Prefer): number | null {
  return prefer.respondAsync ? null : Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs);
}

/** A 504's `Retry-After`: when reading the run with `GET /v1/jobs/{job_id}` is worth a try. */
const RUN_TIMEOUT_RETRY_AFTER_S = 5;

/** BullMQ priority of flex runs: any standard job is taken first. */
const FLEX_PRIORITY = 10;

export interface SubmitRun {
  kind: RunKind;
  job: JobName;
  /** The request as stored and shown back: secrets withheld (see `run-secrets`). */
  request: unknown;
  /** The secrets withheld from `request`, sealed into the run's row bound to its id and owner. */
  secrets?: WithheldSecret[];
  /** Who the run is for; runs the service makes on its own behalf have no key. */
  owner: Pick<KeyOwner, "userId"> & { apiKeyId: string | null };
  /** `flex` runs wait behind standard ones in the queue. */
  serviceTier?: "standard" | "flex";
  /**
   * The request's rate-limit verdict when it is still on its way (see `rateLimit`'s
   * `deferVerdict`): awaited alongside the insert, and a refusal removes the row before anything
   * is queued.
   */
  admission?: Promise<void>;
  /** Told the run's id once its row is stored, before it is queued. */
  onStored?(runId: string): void;
}

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
 * `waitMs` for the final row. Listening first means an end announced meanwhile is not missed.
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

/**
 * Stores a queued run, enqueues its job after the row is committed, and — unless the caller does
 * not wait — waits for it to end, up to `waitMs`. Returns the run id and the finished row (null
 * when the wait ran out first or nobody waited).
 *
 * A caller who waits learns the job id only from an answer that follows a durable commit: the
 * run's final write, or `confirmRunStored` when the wait runs out. Such a commit puts every earlier
 * one on disk, so this insert need not wait for the disk itself (about 0.4 of the 0.9 ms it took). A
 * caller given the job id at once (202, streaming) gets a durable insert.
 */
export async function runAndWait(
  deps: ApiDeps,
  run: SubmitRun,
  waitMs: number | null,
): Promise<{ runId: string; run: Run | null }> {
  const runId = newRunId();
  addLogContext({ runId }); // the request's lines from here on name its run
  const waits = waitMs !== null;
  const row = {
    id: runId,
    kind: run.kind,
    apiKeyId: run.owner.apiKeyId,
    userId: run.owner.userId,
    request: run.request,
    sealedSecrets: sealRunSecrets(run.secrets ?? [], { runId, userId: run.owner.userId }),
    serviceTier: run.serviceTier,
  };
  await insertAdmitted(deps, row, { relaxed: waits }, run.admission);
  run.onStored?.(runId);
  const options = run.serviceTier === "flex" ? { priority: FLEX_PRIORITY } : {};
  const finished = await enqueueAndAwait(
    deps,
    runId,
    () => enqueue(deps.queues.of(run.owner.userId), run.job, { ...describeJob(run), runId }, runId, options),
    waitMs,
  );
  if (waits && !finished && !(await confirmRunStored(deps.ds, runId))) {
    throw new ServiceUnavailableError(
      "The run was lost in a database restart before it started; send the request again",
    );
  }
  return { runId, run: finished };
}

/** Inserts the run while the rate-limit verdict arrives; a refused request leaves no row behind. */
async function insertAdmitted(
  deps: ApiDeps,
  row: NewRun,
  options: { relaxed: boolean },
  admission: Promise<void> = Promise.resolve(),
): Promise<void> {
  const [inserted, admitted] = await Promise.allSettled([insertRun(deps.ds, row, options), admission]);
  if (admitted.status === "rejected") {
    if (inserted.status === "fulfilled") await deleteQueuedRun(deps.ds, row.id).catch(() => undefined);
    throw admitted.reason;
  }
  if (inserted.status === "rejected") throw inserted.reason;
}

/**
 * Throws the contract's error for a run that did not succeed (or is still going); `kind` is the
 * kind it was submitted as. Each says whether the same request sent again can change it
 * (`x-should-retry`): a run still going, yes (a retry waits for it again); a failed or cancelled
 * one, no (a retry gets the same answer).
 */
export function assertSucceeded<K extends RunKind>(
  run: Run | null,
  runId: string,
  kind: K,
): asserts run is RunOfKind<K> {
  if (!run) {
    throw new AppError(
      504,
      "RUN_TIMEOUT",
      "The run is still in progress; fetch its result later with GET /v1/jobs/{job_id}",
      { job_id: runId },
      { Location: `/v1/jobs/${runId}`, "Retry-After": String(RUN_TIMEOUT_RETRY_AFTER_S), ...retryHint(true) },
    );
  }
  if (run.status === "cancelled")
    throw new AppError(
      409,
      "RUN_CANCELLED",
      "The run was cancelled",
      { job_id: run.job_id, ...presentStoppedRun(run) },
      retryHint(false),
    );
  if (run.status !== "succeeded") {
    // The failure's own code, as the job read gives it; RUN_FAILED only when the run stored none.
    const agent = run.error?.agent;
    throw new AppError(
      500,
      run.error?.code ?? "RUN_FAILED",
      run.error?.message ?? "The run failed",
      { job_id: run.job_id, ...(agent ? { agent } : {}), ...presentStoppedRun(run) },
      retryHint(false),
    );
  }
  if (run.kind !== kind) throw new Error(`Run ${runId} is a ${run.kind} run, not ${kind}`);
}
