import type { Context, Middleware } from "koa";
import { AppError } from "../../shared/errors";
import { countRateLimitRefusal } from "../../shared/metrics/web";
import type { OpenRequestRefusal, OpenRequests } from "../limits/open-requests";
import type { RateLimiter } from "../limits/rate-limiter";
import { staticRateLimitHeaders } from "./rate-limit-reply";
import type { V1State } from "./state";

/**
 * A slot frees when one of the client's own streams or waits ends, which the service cannot
 * foresee: 2 s lets an SDK's automatic retries (two by default) find a slot a short run freed,
 * without a refused client coming back at once.
 */
const RETRY_AFTER_S = 2;

function refusalMessage({ scope, limit, tier }: OpenRequestRefusal): string {
  const whose = scope === "key" ? `per API key (${tier} tier)` : `for all keys of the account together (${tier} tier)`;
  return `Too many open requests: at most ${limit} streaming responses and synchronous run requests still waiting ${whose}; wait for one to end, send with Prefer: respond-async, or retry in ${RETRY_AFTER_S} s`;
}

/**
 * Holds a slot of the key's and the account's open-request caps for as long as a request that
 * streams or waits for its run is open (runs after authentication, before the body is read: a
 * refused request costs no reading, and no run is created or charged), and refuses one more with
 * 429 `RATE_LIMITED` and `Retry-After`. `holdsOpen` tells such requests from the rest (an async
 * run request, a read) before the body is known.
 */
export function capOpenRequests(
  openRequests: OpenRequests,
  limiter: RateLimiter,
  holdsOpen: (ctx: Context) => boolean,
): Middleware<V1State> {
  return async (ctx, next) => {
    if (!holdsOpen(ctx)) return next();
    const owner = ctx.state.auth;
    const taken = await openRequests.take(owner);
    if ("refused" in taken) {
      const { tier, limits } = limiter.limitsFor(owner.tier);
      ctx.set(staticRateLimitHeaders(tier, limits));
      ctx.set("Retry-After", String(RETRY_AFTER_S));
      countRateLimitRefusal(taken.refused.scope === "key" ? "key_open_requests" : "account_open_requests");
      throw new AppError(429, "RATE_LIMITED", refusalMessage(taken.refused));
    }
    // A client that leaves frees its slot at once, as one whose answer ends does (the run goes on;
    // a retry attaches to it): an SDK timing out would otherwise be refused by its own abandoned waits.
    ctx.res.once("close", () => taken.lease.release());
    try {
      await next();
    } finally {
      taken.lease.release();
    }
  };
}
