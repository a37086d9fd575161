import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { KoaAdapter } from "@bull-board/koa";
import type { Queue } from "bullmq";
import type { Middleware } from "koa";
import { describedName } from "../../shared/queues/job-description";
import { boardActionPolicy } from "./bull-board-actions";

export const BULL_BOARD_PATH = "/admin/queues";

/**
 * A queue as Bull Board shows it: each job named by what it runs (its BullMQ name, which picks the
 * handler, is unchanged); read-only, its UI shows no action buttons.
 */
function boardQueue(queue: Queue, readOnly: boolean): BullMQAdapter {
  const board = new BullMQAdapter(queue, { readOnlyMode: readOnly });
  board.setFormatter("name", (job: { name?: string; data?: unknown }) => describedName(job.name ?? "", job.data));
  return board;
}

/**
 * Bull Board for the given queues, mounted at `/admin/queues` (the caller puts auth in front, and
 * the retry routes: see `api/routes/admin/bull-board-retry.router.ts`). Each action is let through
 * or refused by `boardActionPolicy` (and, read-only, by `readOnlyBoard` in front).
 */
export function bullBoard(queues: Queue[], options: { readOnly: boolean }): Middleware {
  const adapter = new KoaAdapter();
  adapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => boardQueue(queue, options.readOnly)),
    serverAdapter: adapter,
    options: { uiConfig: {}, handlerHooks: boardActionPolicy },
  });
  return adapter.registerPlugin() as unknown as Middleware;
}
