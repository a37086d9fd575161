import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { KoaAdapter } from "@bull-board/koa";
import type { Queue } from "bullmq";
import type { Middleware } from "koa";

export const BULL_BOARD_PATH = "/admin/queues";

/** Bull Board for the given queues, mounted at `/admin/queues` (the caller puts auth in front). */
export function bullBoard(queues: Queue[]): Middleware {
  const adapter = new KoaAdapter();
  adapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter: adapter });
  return adapter.registerPlugin() as unknown as Middleware;
}
