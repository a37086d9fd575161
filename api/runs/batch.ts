import { newRunId } from "../../shared/db/run-id";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import { isRunOfKind, type Run, type RunKind, type RunOfKind } from "../../shared/db/entities/run.entity";
import { insertBatch, loadChildren } from "../../shared/db/run-batch-store";
import { BadRequestError } from "../../shared/errors";
import { addLogContext } from "../../shared/logger";
import { describeJob } from "../../shared/queues/job-description";
import { enqueueBatch } from "../../shared/queues/queues";
import { accountPrefix } from "../../shared/queues/shards";
import type { JobName } from "../../shared/queues/registry";
import { sealRunSecrets, type SplitRequest } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { acceptedReply, type Reply } from "../reply";
import type { RunHooks } from "./ready-agents";
import { takeEarlierRun } from "./run-attempt";
import { assertSucceeded, awaitRun, enqueueAndAwait, syncWaitMs, type Prefer } from "./submit-run";

/** The runs of one kind of batch (E3's agents, E2's swarms): the parent's and its items', and how they are answered. */
export interface BatchKind<P extends RunKind, C extends RunKind> {
  parentKind: P;
  childKind: C;
  parentJob: JobName;
  childJob: JobName;
  /** The answer's body, from the succeeded parent and its children in item order. */
  present(parent: RunOfKind<P>, children: RunOfKind<C>[]): unknown;
}

/** A batch made ready to run: the parent's request and its items. */
export interface BatchItems<P extends RunKind> {
  parentRequest: RunOfKind<P>["request"];
  /** The items to run, in request order: each request to store, and the secrets withheld from it. */
  items: SplitRequest<unknown>[];
}

/** Refuses an empty batch or one over `MAX_BATCH_SIZE` (400, as docs/api.md "Batches" says). */
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
 * Makes the batch ready (`prepare`: its checks, marketplace prompts, publication; or the answer
 * itself when nothing in it can run), stores a parent run and one child run per item, enqueues
 * them as a BullMQ flow (items run in parallel across workers; the parent runs when the last item
 * has ended) and, unless the caller does not wait, waits for the parent: 200 with the presented
 * batch, or 202 when nobody waits. A request that is another attempt of one that started a batch
 * (see `takeEarlierRun`) prepares and stores nothing: it answers from that batch.
 */
export async function runBatch<P extends RunKind, C extends RunKind>(
  deps: ApiDeps,
  kind: BatchKind<P, C>,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks,
  prepare: () => Promise<BatchItems<P> | Reply>,
): Promise<Reply> {
  const earlier = await takeEarlierRun(deps, owner, kind.parentKind, prefer, hooks);
  if (earlier) {
    const { run: taken, prefer: waiting } = earlier;
    const waitMs = syncWaitMs(waiting);
    const parent = waitMs === null ? null : await awaitRun(deps, taken.id, waitMs);
    return answerBatch(deps, kind, taken.id, parent, waitMs);
  }
  const batch = await prepare();
  if (!("items" in batch)) return batch;
  const parentId = newRunId();
  addLogContext({ runId: parentId }); // the request's lines from here on name its run
  const children = batch.items.map(({ request, secrets }) => {
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
    parentRequest: batch.parentRequest,
    children,
  });
  hooks.attempt?.runFound(parentId);
  const enqueueJobs = () =>
    enqueueBatch(
      deps.flows,
      accountPrefix(owner.userId),
      {
        name: kind.parentJob,
        runId: parentId,
        about: describeJob({ kind: kind.parentKind, request: batch.parentRequest, owner }),
      },
      children.map((c) => ({ name: kind.childJob, runId: c.id, about: c.about })),
    );
  const waitMs = syncWaitMs(prefer);
  return answerBatch(deps, kind, parentId, await enqueueAndAwait(deps, parentId, enqueueJobs, waitMs), waitMs);
}

/** A batch's answer: a 202 when nobody waits, else the presented batch (or the error its parent ended in). */
async function answerBatch<P extends RunKind, C extends RunKind>(
  deps: ApiDeps,
  kind: BatchKind<P, C>,
  parentId: string,
  parent: Run | null,
  waitMs: number | null,
): Promise<Reply> {
  if (waitMs === null) return acceptedReply(parentId);
  assertSucceeded(parent, parentId, kind.parentKind);
  const items = (await loadChildren(deps.ds, parentId)).filter(isRunOfKind(kind.childKind));
  return { status: 200, body: kind.present(parent, items) };
}
