import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { KoaAdapter } from "@bull-board/koa";
import type { Queue } from "bullmq";
import type { QueueName } from "../../shared/queues/queue-names";
import type { Middleware } from "koa";
import { describedName } from "../../shared/queues/job-description";
import { boardActionPolicy } from "./bull-board-actions";

export const BULL_BOARD_PATH = "/admin/queues";

/**
 * The name Bull Board gives a shard's queue (its URL's `:queueName`): the queue's own name with one
 * shard, as before shards existed; with several, `shard-<n>.<queue>`, so the board lists every
 * shard's queue under a name of its own (names must differ: the board finds queues by name).
 */
export function boardQueueName(queue: QueueName, shard: number, shards: number): string {
  return `${shardLabel(shard, shards)}${queue}`;
}

const shardLabel = (shard: number, shards: number) => (shards > 1 ? `shard-${shard}.` : "");

/**
 * A queue as Bull Board shows it: each job named by what it runs (its BullMQ name, which picks the
 * handler, is unchanged); read-only, its UI shows no action buttons.
 */
function boardQueue(queue: Queue, readOnly: boolean, shard: number, shards: number): BullMQAdapter {
  const board = new BullMQAdapter(queue, {
    readOnlyMode: readOnly,
    prefix: shardLabel(shard, shards),
    ...(shards > 1
      ? { description: `account shard ${shard} of ${shards}; Redis keys under ${queue.opts.prefix}` }
      : {}),
  });
  board.setFormatter("name", (job: { name?: string; data?: unknown }) => describedName(job.name ?? "", job.data));
  return board;
}

/**
 * Bull Board for every queue of every shard (`shards[n]` the queues of shard n), mounted at
 * `/admin/queues` (the caller puts auth in front, and the retry routes: see
 * `api/routes/admin/bull-board-retry.router.ts`). Each action is let through or refused by
 * `boardActionPolicy` (and, read-only, by `readOnlyBoard` in front).
 */
export function bullBoard(shards: Record<QueueName, Queue>[], options: { readOnly: boolean }): Middleware {
  const adapter = new KoaAdapter();
  adapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: shards.flatMap((queues, shard) =>
      Object.values(queues).map((queue) => boardQueue(queue, options.readOnly, shard, shards.length)),
    ),
    serverAdapter: adapter,
    options: { uiConfig: {}, handlerHooks: boardActionPolicy },
  });
  return adapter.registerPlugin() as unknown as Middleware;
}
