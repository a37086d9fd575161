import type Router from "@koa/router";
import type { ApiDeps } from "../../deps";
import type { RateLimiter } from "../../services/rate-limiter";
import { agentBatchRouter } from "./agent/agent-batch.router";
import { agentRouter } from "./agent/agent.router";
import { jobsRouter } from "./jobs/jobs.router";
import { logsRouter } from "./logs/logs.router";
import { marketplaceRouter } from "./marketplace/marketplace.router";
import { modelsRouter } from "./meta/models.router";
import { rateLimitsRouter } from "./meta/rate-limits.router";
import { swarmRouter } from "./swarm/swarm.router";

/** Every `/v1` router, in mount order; all sit behind the JSON body parser, the API key and the rate limits. */
export function v1Routers(deps: ApiDeps, limiter: RateLimiter): Router[] {
  return [agentRouter(deps), agentBatchRouter(deps), swarmRouter(deps), jobsRouter(deps), rateLimitsRouter(limiter), modelsRouter(), logsRouter(deps), marketplaceRouter(deps)];
}
