import Router from "@koa/router";
import type { Context } from "koa";
import type { ApiDeps } from "../../deps";
import type { Queue } from "bullmq";
import { BULL_BOARD_PATH, boardQueueName } from "../../http/bull-board";
import { retryFailedJobs, retryRunJob } from "../../runs/operator-retry";
import { QUEUE_NAMES } from "../../../shared/queues/queue-names";
import type { ShardedQueues } from "../../../shared/queues/queues";

/** An error as Bull Board's own routes answer it (its UI shows the key's title and the message). */
function boardError(
  ctx: Context,
  status: number,
  key: string | { key: string; options: Record<string, string> },
  message?: string,
): void {
  ctx.status = status;
  ctx.body = { error: typeof key === "string" ? { key } : key, ...(message ? { message } : {}) };
}

/** The queue the board shows under `boardName` (`boardQueueName`), in whichever shard. */
function queueOnBoard(queues: ShardedQueues, boardName: string): Queue | undefined {
  const shards = queues.shards.length;
  for (const [shard, byName] of queues.shards.entries())
    for (const name of QUEUE_NAMES) if (boardQueueName(name, shard, shards) === boardName) return byName[name];
  return undefined;
}

/**
 * Bull Board's two retry routes (a job's Retry, and a queue's "Retry all"), answered here, in
 * front of the board, so that every retry goes through the run's state machine: a failed run is
 * re-opened before its job goes back to the queue (`api/runs/operator-retry.ts`). The board's own
 * handlers for these routes never run (its action policy refuses them, should they be reached).
 * Mounted behind the board's basic auth; answers in the board's own shapes.
 */
export function bullBoardRetryRouter(deps: Pick<ApiDeps, "ds" | "queues">): Router {
  // Matched exactly as the board's own routes are (case and trailing slash included).
  const router = new Router({ prefix: `${BULL_BOARD_PATH}/api/queues`, sensitive: true, strict: true });
  router.put("/:queueName/retry/:queueStatus", async (ctx) => {
    const { queueName, queueStatus } = ctx.params;
    const queue = queueOnBoard(deps.queues, queueName);
    if (!queue) return boardError(ctx, 404, "ERRORS.QUEUE_NOT_FOUND");
    if (queueStatus === "completed")
      return boardError(
        ctx,
        409,
        "ERRORS.FORBIDDEN",
        "Completed jobs are runs that succeeded or were cancelled: they are not run again",
      );
    if (queueStatus !== "failed")
      return boardError(ctx, 400, { key: "ERRORS.STATUS_NOT_RETRIABLE", options: { status: queueStatus } });
    ctx.body = await retryFailedJobs(deps.ds, queue);
  });
  router.put("/:queueName/:jobId/retry", async (ctx) => {
    const { queueName, jobId } = ctx.params;
    const queue = queueOnBoard(deps.queues, queueName);
    if (!queue) return boardError(ctx, 404, "ERRORS.QUEUE_NOT_FOUND");
    const answer = await retryRunJob(deps.ds, queue, jobId);
    if (answer.retried) {
      ctx.status = 204;
      return;
    }
    boardError(ctx, answer.status, answer.status === 404 ? "ERRORS.JOB_NOT_FOUND" : "ERRORS.FORBIDDEN", answer.reason);
  });
  return router;
}
