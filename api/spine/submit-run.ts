import { newRunId } from "../../shared/db/run-id";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { Run } from "../../shared/db/entities/run.entity";
import { confirmRunStored } from "../../shared/db/runs/run-rows";
import { ServiceUnavailableError } from "../../shared/errors";
import { describeJob } from "../../shared/queues/job-description";
import { fairPriorities, fairWeight } from "../../shared/queues/fair-priority";
import { enqueue } from "../../shared/queues/queues";
import { addLogContext } from "../../shared/logger";
import { RUN_KIND_CATALOG, jobOf, type SteppedKind } from "../../shared/runs/run-kind-catalog";
import { sealRunSecrets, type WithheldSecret } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { insertAdmitted } from "./admitted-insert";
import { enqueueAndAwait } from "./wait-for-run";

/** A run to store and queue: what it is, who it is for, and what the request told the spine. */
export interface SubmitRun {
  /** A kind a worker executes itself; its job is the catalog's. */
  kind: SteppedKind;
  /** The request as stored and shown back: secrets withheld (see `run-secrets`). */
  request: unknown;
  /** The secrets withheld from `request`, sealed into the run's row bound to its id and owner. */
  secrets?: WithheldSecret[];
  /** Who the run is for; runs the service makes on its own behalf have no key. */
  owner: Pick<KeyOwner, "userId"> & { apiKeyId: string | null; tier?: string };
  /** `flex` runs wait behind standard ones in the queue; each band is shared fairly by the accounts (`fair-priority`). */
  serviceTier?: "standard" | "flex";
  /** Where the run's end is reported (checked already: `assertWebhookUrlsAllowed`). */
  webhookUrl?: string | null;
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
 * The run spine, which every run request goes through: store the row, enqueue the id, wait for
 * the final row; the caller answers from it (`answerRun`, `assertSucceeded`). Returns the run id
 * and the finished row (null when the wait ran out first or nobody waited).
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

  // 1. Store the row, `queued`: the row exists before the job. Beside the rate-limit verdict
  //    (`insertAdmitted`), and without waiting for the disk when a durable commit follows (above).
  const row = {
    id: runId,
    kind: run.kind,
    apiKeyId: run.owner.apiKeyId,
    userId: run.owner.userId,
    request: run.request,
    sealedSecrets: sealRunSecrets(run.secrets ?? [], { runId, userId: run.owner.userId }),
    serviceTier: run.serviceTier,
    webhookUrl: run.webhookUrl,
  };
  await insertAdmitted(deps, row, { relaxed: waits }, run.admission);
  run.onStored?.(runId);

  // 2. Enqueue the id and 3. wait for the final row, listening before the job is queued
  //    (`enqueueAndAwait`) so that a fast run's end is not missed.
  const queueRun = async () => {
    const turn = {
      accountId: run.owner.userId,
      weight: fairWeight(run.owner.tier),
      band: run.serviceTier ?? "standard",
    };
    const [priority] = await fairPriorities(deps.queues.connection, RUN_KIND_CATALOG[run.kind].queue, turn);
    await enqueue(deps.queues.of(run.owner.userId), jobOf(run.kind), { ...describeJob(run), runId }, runId, {
      priority,
    });
  };
  const finished = await enqueueAndAwait(deps, runId, queueRun, waitMs);

  // 4. Answer: the final row, or — before a 504 names the job id — a durable commit proving the row is on disk.
  if (waits && !finished && !(await confirmRunStored(deps.ds, runId))) {
    throw new ServiceUnavailableError(
      "The run was lost in a database restart before it started; send the request again",
    );
  }
  return { runId, run: finished };
}
