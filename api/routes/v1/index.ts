import type Router from "@koa/router";
import type { Context } from "koa";
import type { ApiDeps } from "../../deps";
import type { RateLimiter } from "../../services/rate-limiter";
import { agentBatchRouter } from "./agent/agent-batch.router";
import { AGENT_COMPLETIONS_PATH, agentRouter } from "./agent/agent.router";
import { jobsRouter } from "./jobs/jobs.router";
import { logsRouter } from "./logs/logs.router";
import { marketplaceRouter } from "./marketplace/marketplace.router";
import { modelsRouter } from "./meta/models.router";
import { rateLimitsRouter } from "./meta/rate-limits.router";
import { SWARM_COMPLETIONS_PATH, swarmRouter } from "./swarm/swarm.router";

/** Every `/v1` router, in mount order; all sit behind the API key, the rate limits and the JSON body parser. */
export function v1Routers(deps: ApiDeps, limiter: RateLimiter): Router[] {
  return [agentRouter(deps), agentBatchRouter(deps), swarmRouter(deps), jobsRouter(deps), rateLimitsRouter(limiter), modelsRouter(), logsRouter(deps), marketplaceRouter(deps)];
}

const RUN_SPINE_PATHS = new Set([AGENT_COMPLETIONS_PATH, SWARM_COMPLETIONS_PATH]);

/**
 * E5 and E1 take their rate-limit verdict late: their services await it alongside the run's insert
 * (and before publishing anything), so the limiter's round trip to Redis is off the request's
 * critical path. A request with an `Idempotency-Key` waits for it first like every other request,
 * because its idempotency record is written before the route runs.
 */
export function defersRateLimitVerdict(ctx: Context): boolean {
  return ctx.method === "POST" && RUN_SPINE_PATHS.has(ctx.path) && !ctx.get("idempotency-key");
}
