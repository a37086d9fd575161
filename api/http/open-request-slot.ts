import type { Context, Middleware } from "koa";
import type { OpenRequests } from "../limits/open-requests";
import type { V1State } from "./state";

/**
 * Gives a request that streams or waits for its run (`holdsOpen`, told from the path and headers)
 * a slot to be taken by its admission verdict, and frees it however the request ends: its answer
 * or stream ends, it fails, or its client leaves (the run goes on; a retry attaches to it: an SDK
 * timing out would otherwise be refused by its own abandoned waits). Every other request (an
 * async run request, a read) takes no slot.
 */
export function openRequestSlots(
  openRequests: OpenRequests,
  holdsOpen: (ctx: Context) => boolean,
): Middleware<V1State> {
  return async (ctx, next) => {
    if (!holdsOpen(ctx)) return next();
    const slot = openRequests.slot();
    ctx.state.openRequestSlot = slot;
    ctx.res.once("close", () => slot.end());
    try {
      await next();
    } finally {
      slot.end();
    }
  };
}
