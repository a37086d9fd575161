import { newRunId } from "../../shared/db/run-id";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import { isRunOfKind, type RunKind, type RunOfKind } from "../../shared/db/entities/run.entity";
import { insertBatch, loadChildren } from "../../shared/db/run-batch-store";
import { BadRequestError } from "../../shared/errors";
import { enqueueBatch } from "../../shared/queues/queues";
import type { JobName } from "../../shared/queues/registry";
import { sealRunSecrets, type SplitRequest } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { assertSucceeded, enqueueAndAwait } from "./submit-run";

export interface BatchSpec<P extends RunKind, C extends RunKind> {
  parentKind: P;
  childKind: C;
  parentJob: JobName;
  childJob: JobName;
  owner: KeyOwner;
  parentRequest: RunOfKind<P>["request"];
  /** The items to run, in request order: each request to store, and the secrets withheld from it. */
  items: SplitRequest<unknown>[];
}

/** Refuses an empty batch or one over `MAX_BATCH_SIZE` (400, as CONTRACT.md says). */
export function assertBatchSize(count: number): void {
  if (count === 0) throw new BadRequestError("The batch is empty: send at least one item", {}, "EMPTY_BATCH");
  if (count > config.maxBatchSize) {
    throw new BadRequestError(
      `The batch has ${count} items; at most ${config.maxBatchSize} are allowed`,
      {},
      "BATCH_TOO_LARGE",
    );
  }
}

/**
 * Stores a parent run and one child run per item, enqueues them as a BullMQ flow (items run in
 * parallel across workers; the parent runs when the last item has ended) and, unless the caller
 * does not wait, waits for the parent. Returns the parent id, and the finished parent with its
 * children in item order (null when nobody waited).
 */
export async function runBatch<P extends RunKind, C extends RunKind>(
  deps: ApiDeps,
  spec: BatchSpec<P, C>,
  waitMs: number | null,
): Promise<{ parentId: string; done: { parent: RunOfKind<P>; children: RunOfKind<C>[] } | null }> {
  const parentId = newRunId();
  const children = spec.items.map(({ request, secrets }) => {
    const id = newRunId();
    return { id, request, sealedSecrets: sealRunSecrets(secrets, { runId: id, userId: spec.owner.userId }) };
  });
  await insertBatch(deps.ds, {
    parentId,
    parentKind: spec.parentKind,
    childKind: spec.childKind,
    apiKeyId: spec.owner.apiKeyId,
    userId: spec.owner.userId,
    parentRequest: spec.parentRequest,
    children,
  });
  const enqueueJobs = () =>
    enqueueBatch(
      deps.flows,
      { name: spec.parentJob, runId: parentId },
      children.map((c) => ({ name: spec.childJob, runId: c.id })),
    );
  const parent = await enqueueAndAwait(deps, parentId, enqueueJobs, waitMs);
  if (waitMs === null) return { parentId, done: null };
  assertSucceeded(parent, parentId, spec.parentKind);
  const items = (await loadChildren(deps.ds, parentId)).filter(isRunOfKind(spec.childKind));
  return { parentId, done: { parent, children: items } };
}

/** How long a synchronous request waits: the client's `Prefer: wait`, never above `SYNC_WAIT_MS`. */
export function syncWaitMs(prefer: { respondAsync: boolean; waitMs: number | null }): number | null {
  return prefer.respondAsync ? null : Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs);
}
