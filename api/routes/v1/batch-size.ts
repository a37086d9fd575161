import type { Middleware } from "koa";
import { config } from "../../../shared/config";
import { assertBatchSize } from "../../runs/batch";

/** A batch over `MAX_BATCH_SIZE` is refused (400) before its items are validated one by one. */
export const rejectOversizedBatch: Middleware = async (ctx, next) => {
  const body = ctx.request.body;
  if (Array.isArray(body) && body.length > config.maxBatchSize) assertBatchSize(body.length);
  await next();
};
