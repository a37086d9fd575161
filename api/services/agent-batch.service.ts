import { randomUUID } from "node:crypto";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { insertBatch, loadChildren } from "../../shared/db/run-batch-store";
import { failRun, findRun, isTerminal } from "../../shared/db/run-store";
import { BadRequestError, ServiceUnavailableError } from "../../shared/errors";
import { enqueueBatch } from "../../shared/queues/queues";
import type { ApiDeps } from "../deps";
import { presentAgentBatch } from "../presenters/agent-batch.presenter";
import { acceptedReply, type Reply } from "./reply";
import { effectiveBudget } from "./run-budget";
import { assertSucceeded } from "./run-service";

/**
 * E3: one parent run and one child run per item, enqueued as a BullMQ flow so the items run in
 * parallel across agent workers and the parent runs when the last item has ended. Answers in
 * request order; an item that fails is reported in its slot.
 */
export async function completeAgentBatch(
  deps: ApiDeps,
  items: AgentCompletionRequest[],
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
): Promise<Reply> {
  if (items.length === 0) throw new BadRequestError("The batch is empty: send at least one item", {}, "EMPTY_BATCH");
  if (items.length > config.maxBatchSize) {
    throw new BadRequestError(`The batch has ${items.length} items; at most ${config.maxBatchSize} are allowed`, {}, "BATCH_TOO_LARGE");
  }
  const parentId = randomUUID();
  // Items stream nothing: their results come back together.
  const children = items.map((item) => ({ id: randomUUID(), request: { ...item, stream: false, budget: effectiveBudget(item.budget, owner.tier) } }));
  await insertBatch(deps.ds, {
    parentId,
    parentKind: "agent_batch",
    childKind: "agent",
    apiKeyId: owner.apiKeyId,
    userId: owner.userId,
    parentRequest: { total_requests: items.length },
    children,
  });
  const watch = prefer.respondAsync ? null : deps.waiter.watch(parentId);
  try {
    try {
      await enqueueBatch(deps.flows, { name: "agent-batch", runId: parentId }, children.map((c) => ({ name: "agent-run" as const, runId: c.id })));
    } catch {
      await failRun(deps.ds, parentId, { message: "The batch could not be queued", code: "QUEUE_UNAVAILABLE" }).catch(() => undefined);
      throw new ServiceUnavailableError("The job queue is unavailable; try again shortly");
    }
    if (!watch) return acceptedReply(parentId);
    const waitMs = Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs);
    const parent = await watch.wait(async () => {
      const row = await findRun(deps.ds, parentId);
      return row && isTerminal(row.status) ? row : undefined;
    }, waitMs);
    assertSucceeded(parent ?? null, parentId);
    return { status: 200, body: presentAgentBatch(parent!, await loadChildren(deps.ds, parentId)) };
  } finally {
    watch?.close();
  }
}
