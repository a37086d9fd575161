import Koa from "koa";
import compose from "koa-compose";
import Router from "@koa/router";
import { config } from "../shared/config";
import { logger } from "../shared/logger";
import { bullBoard, BULL_BOARD_PATH } from "./bull-board";
import type { ApiDeps } from "./deps";
import { apiKeyAuth } from "./middleware/api-key-auth";
import { basicAuth } from "./middleware/basic-auth";
import { idempotency } from "./middleware/idempotency";
import { jsonBody } from "./middleware/json-body";
import { rateLimit } from "./middleware/rate-limit";
import { requestLogger } from "./middleware/request-logger";
import { v1Errors } from "./middleware/v1-errors";
import { platformErrors } from "./middleware/platform-errors";
import { platformRouters } from "./routes/platform";
import { createPlatformServices, type PlatformServices } from "./services/platform-services";
import { healthRouter } from "./routes/meta/health.router";
import { agentBatchRouter } from "./routes/v1/agent/agent-batch.router";
import { agentRouter } from "./routes/v1/agent/agent.router";
import { swarmRouter } from "./routes/v1/swarm/swarm.router";
import { jobsRouter } from "./routes/v1/jobs/jobs.router";
import { rateLimitsRouter } from "./routes/v1/meta/rate-limits.router";
import { createRateLimiter, type RateLimiter } from "./services/rate-limiter";
import { logsRouter } from "./routes/v1/logs/logs.router";
import { modelsRouter } from "./routes/v1/meta/models.router";

/** Where people get API keys; every 401 points there. */
export const howToGetKey = () => `${config.http.platformUrl}/platform/api-keys`;

/** Routers' middleware, with their own 405 handling (`Allow` header) for known paths. */
function routes(routers: Router[]): Koa.Middleware[] {
  return routers.flatMap((router) => [router.routes(), router.allowedMethods()]) as Koa.Middleware[];
}

function mount(app: Koa, routers: Router[]): void {
  for (const middleware of routes(routers)) app.use(middleware);
}

/**
 * The execution API (`/v1`, `/health`, Bull Board) as a Koa app without a listener, so tests can
 * serve it on any port. Tests may pass their own rate limiter (tiny limits, an unreachable Redis).
 */
export function createApiApp(deps: ApiDeps, options: { bullBoard?: boolean; rateLimiter?: RateLimiter } = {}): Koa {
  const app = new Koa({ proxy: true });
  app.silent = true; // the error middleware logs; Koa's default printer would log twice
  app.use(requestLogger(logger));
  app.use(v1Errors(howToGetKey()));
  if (options.bullBoard !== false) {
    app.use(basicAuth(BULL_BOARD_PATH, config.admin.user, config.admin.password));
    app.use(bullBoard(Object.values(deps.queues)));
  }
  mount(app, [healthRouter(deps)]);

  // Everything under /v1 takes JSON and an API key; the rest (health, admin) does not.
  const limiter = options.rateLimiter ?? createRateLimiter(deps.redis);
  const v1 = compose([
    jsonBody(config.http.bodyLimit),
    apiKeyAuth(deps.keys),
    rateLimit(limiter),
    idempotency(deps.ds, { syncWaitMs: config.http.syncWaitMs }),
    ...routes([agentRouter(deps), agentBatchRouter(deps), swarmRouter(deps), jobsRouter(deps), rateLimitsRouter(limiter), modelsRouter(), logsRouter(deps)]),
  ]);
  app.use((ctx, next) => (ctx.path.startsWith("/v1/") ? v1(ctx, next) : next()));
  return app;
}

/**
 * The platform app (`/api`, listing pages, API-keys page, uploaded images), with the spec's
 * platform error bodies. Tests may pass their own services (storage, prices, daily limits).
 */
export function createPlatformApp(deps: ApiDeps, services: PlatformServices = createPlatformServices()): Koa {
  const app = new Koa({ proxy: true });
  app.silent = true;
  app.use(requestLogger(logger));
  app.use(platformErrors(howToGetKey()));
  mount(app, platformRouters(deps, services));
  return app;
}
