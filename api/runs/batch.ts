import { newRunId } from "../../shared/db/run-id";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import { isRunOfKind, type RunKind, type RunOfKind } from "../../shared/db/entities/run.entity";
import { insertBatch, loadChildren } from "../../shared/db/run-batch-store";
import { BadRequestError } from "../../shared/errors";
import { addLogContext } from "../../shared/logger";
import { describeJob } from "../../shared/queues/job-description";
import { enqueueBatch } from "../../shared/queues/queues";
import type { JobName } from "../../shared/queues/registry";
import { sealRunSecrets, type SplitRequest } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { acceptedReply, type Reply } from "../reply";
import { assertSucceeded, enqueueAndAwait, syncWaitMs, type Prefer } from "./submit-run";

/** The runs of one kind of batch (E3's agents, E2's swarms): the parent's and its items'. */
export interface BatchKind<P extends RunKind, C extends RunKind> {
  parentKind: P;
  childKind: C;
  parentJob: JobName;
  childJob: JobName;
}

export interface BatchSpec<P extends RunKind, C extends RunKind> {
  kind: BatchKind<P, C>;
  owner: KeyOwner;
  parentRequest: RunOfKind<P>["request"];
  /** The items to run, in request order: each request to store, and the secrets withheld from it. */
  items: SplitRequest<unknown>[];
  /** The answer's body, from the succeeded parent and its children in item order. */
  present(parent: RunOfKind<P>, children: RunOfKind<C>[]): unknown;
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
 * does not wait, waits for the parent: 200 with the presented batch, or 202 when nobody waits.
 */
export async function runBatch<P extends RunKind, C extends RunKind>(
  deps: ApiDeps,
  spec: BatchSpec<P, C>,
  prefer: Prefer,
): Promise<Reply> {
  const { kind, owner } = spec;
  const parentId = newRunId();
  addLogContext({ runId: parentId }); // the request's lines from here on name its run
  const children = spec.items.map(({ request, secrets }) => {
    const id = newRunId();
    const about = describeJob({ kind: kind.childKind, request, owner });
    return { id, request, about, sealedSecrets: sealRunSecrets(secrets, { runId: id, userId: owner.userId }) };
  });
  await insertBatch(deps.ds, {
    parentId,
    parentKind: kind.parentKind,
    childKind: kind.childKind,
    apiKeyId: owner.apiKeyId,
    userId: owner.userId,
    parentRequest: spec.parentRequest,
    children,
  });
  const enqueueJobs = () =>
    enqueueBatch(
      deps.flows,
      {
        name: kind.parentJob,
        runId: parentId,
        about: describeJob({ kind: kind.parentKind, request: spec.parentRequest, owner }),
      },
      children.map((c) => ({ name: kind.childJob, runId: c.id, about: c.about })),
    );
  const waitMs = syncWaitMs(prefer);
  const parent = await enqueueAndAwait(deps, parentId, enqueueJobs, waitMs);
  if (waitMs === null) return acceptedReply(parentId);
  assertSucceeded(parent, parentId, kind.parentKind);
  const items = (await loadChildren(deps.ds, parentId)).filter(isRunOfKind(kind.childKind));
  return { status: 200, body: spec.present(parent, items) };
}
