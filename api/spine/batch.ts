import { newRunId } from "../../shared/db/run-id";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import { isRunOfKind, type Run, type RunKind, type RunOfKind } from "../../shared/db/entities/run.entity";
import { insertBatch, loadChildren } from "../../shared/db/runs/run-batches";
import { BadRequestError } from "../../shared/errors";
import { addLogContext } from "../../shared/logger";
import { describeJob } from "../../shared/queues/job-description";
import { fairPriorities, fairWeight } from "../../shared/queues/fair-priority";
import { enqueueBatch } from "../../shared/queues/queues";
import { accountPrefix } from "../../shared/queues/shards";
import { jobOf, RUN_KIND_CATALOG, type BatchKindName, type ChildKindOf } from "../../shared/runs/run-kind-catalog";
import { sealRunSecrets, type SplitRequest } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { acceptedReply, type Reply } from "../reply";
import { syncWaitMs, type Prefer } from "./prefer";
import { assertSucceeded } from "./run-answer";
import { takeEarlierRun, type AttemptHooks } from "./run-attempt";
import { awaitRun, enqueueAndAwait } from "./wait-for-run";
import { acceptWebhookUrls, webhookUrlOf, withoutWebhookUrl } from "./webhook-url";

/**
 * One kind of batch (an agent batch's agents, a swarm batch's swarms): its parent's kind, whose catalog entry names the
 * items' kind and both jobs, and how it is answered.
 */
export interface BatchKind<P extends BatchKindName> {
  parentKind: P;
  /** The answer's body, from the succeeded parent and its children in item order. */
  present(parent: RunOfKind<P>, children: RunOfKind<ChildKindOf<P>>[]): unknown;
}

/** The kind of a batch's items, from the catalog. */
const childKindOf = <P extends BatchKindName>(parentKind: P) =>
  RUN_KIND_CATALOG[parentKind].childKind as ChildKindOf<P>;

/** A batch made ready to run: the parent's request and its items. */
export interface BatchItems<P extends RunKind> {
  parentRequest: RunOfKind<P>["request"];
  /** The items to run, in request order: each request to store, and the secrets withheld from it. */
  items: SplitRequest<unknown>[];
  /** Where the whole batch's end is reported (a batch body that is an object may give one), beside its items' own. */
  webhookUrl?: string | null;
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
export async function runBatch<P extends BatchKindName>(
  deps: ApiDeps,
  kind: BatchKind<P>,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: AttemptHooks,
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
  // The batch's own webhook fires when all of it has ended; an item's, when that item has.
  const webhookUrl = batch.webhookUrl ?? null;
  const itemWebhookUrls = batch.items.map(({ request }) => webhookUrlOf(request));
  await acceptWebhookUrls(deps.ds, owner.userId, [
    { url: webhookUrl, field: "webhook_url" },
    ...itemWebhookUrls.map((url, i) => ({ url, field: `[${i}].webhook_url` })),
  ]);
  const childKind = childKindOf(kind.parentKind);
  const parentId = newRunId();
  addLogContext({ runId: parentId }); // the request's lines from here on name its run
  const children = batch.items.map(({ request, secrets }, i) => {
    const id = newRunId();
    const about = describeJob({ kind: childKind, request, owner });
    const sealedSecrets = sealRunSecrets(secrets, { runId: id, userId: owner.userId });
    return { id, request: withoutWebhookUrl(request), about, sealedSecrets, webhookUrl: itemWebhookUrls[i] };
  });
  await insertBatch(deps.ds, {
    parentId,
    parentKind: kind.parentKind,
    childKind,
    apiKeyId: owner.apiKeyId,
    userId: owner.userId,
    parentRequest: batch.parentRequest,
    webhookUrl,
    children,
  });
  hooks.attempt?.runFound(parentId);
  const enqueueJobs = async () => {
    const turn = { accountId: owner.userId, weight: fairWeight(owner.tier), band: "standard" as const };
    const priorities = await fairPriorities(
      deps.queues.connection,
      RUN_KIND_CATALOG[childKind].queue,
      turn,
      children.length,
    );
    await enqueueBatch(
      deps.flows,
      accountPrefix(owner.userId),
      {
        name: jobOf(kind.parentKind),
        runId: parentId,
        about: describeJob({ kind: kind.parentKind, request: batch.parentRequest, owner }),
      },
      children.map((c, i) => ({ name: jobOf(childKind), runId: c.id, about: c.about, priority: priorities[i] })),
    );
  };
  const waitMs = syncWaitMs(prefer);
  return answerBatch(deps, kind, parentId, await enqueueAndAwait(deps, parentId, enqueueJobs, waitMs), waitMs);
}

/** A batch's answer: a 202 when nobody waits, else the presented batch (or the error its parent ended in). */
async function answerBatch<P extends BatchKindName>(
  deps: ApiDeps,
  kind: BatchKind<P>,
  parentId: string,
  parent: Run | null,
  waitMs: number | null,
): Promise<Reply> {
  if (waitMs === null) return acceptedReply(parentId);
  assertSucceeded(parent, parentId, kind.parentKind);
  const items = (await loadChildren(deps.ds, parentId)).filter(isRunOfKind(childKindOf(kind.parentKind)));
  return { status: 200, body: kind.present(parent, items) };
}
