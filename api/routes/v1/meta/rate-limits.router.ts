import Router from "@koa/router";
import type { V1State } from "../../../http/state";
import { documentRoutes } from "../../../openapi/operation";
import { rateLimitsResponseSchema } from "../../../schemas/meta-response.schema";
import type { RateLimiter } from "../../../limits/rate-limiter";
import { rateLimitsReport } from "../../../limits/rate-limits-report";

/**
 * `GET /v1/rate/limits`: the caller's limits and counts. The rate-limit middleware has already
 * counted this request and left the state in `ctx.state.rateLimit`, so reading costs nothing more;
 * without that middleware in front it peeks at the counters instead.
 */
export function rateLimitsRouter(limiter: RateLimiter): Router {
  const router = new Router<V1State>();
  router.get("/v1/rate/limits", async (ctx) => {
    ctx.body = await rateLimitsReport(limiter, ctx.state.auth, ctx.state.rateLimit);
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/rate/limits",
    summary: "Your key's rate limits and counts",
    description:
      "This request counts too, like any other; a batch counts one per item. Every key of an account also counts against the account's windows: each window reports whichever of the two has less room.",
    tags: ["Account"],
    access: "apiKey",
    responses: {
      200: { description: "The tier's limits and the counts of each window", body: rateLimitsResponseSchema },
    },
  });
}
