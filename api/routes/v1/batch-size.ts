import type { Middleware } from "koa";
import { config } from "../../../shared/config";
import { assertBatchSize } from "../../spine/batch";

/**
 * A batch over `MAX_BATCH_SIZE` is refused (400) before its items are validated one by one.
 * `itemsOf` finds the items in the body: the body itself, unless the batch wraps them in a field.
 */
export function rejectOversizedBatch(itemsOf: (body: unknown) => unknown = (body) => body): Middleware {
  return async (ctx, next) => {
    const items = itemsOf(ctx.request.body);
    if (Array.isArray(items) && items.length > config.maxBatchSize) assertBatchSize(items.length);
    await next();
  };
}
