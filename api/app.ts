import Koa from "koa";
import compose from "koa-compose";
import Router from "@koa/router";
import { config } from "../shared/config";
import { logger } from "../shared/logger";
import { bullBoard, BULL_BOARD_PATH } from "./http/bull-board";
import type { ApiDeps } from "./deps";
import { apiKeyAuth } from "./http/auth";
import { basicAuth } from "./http/basic-auth";
import { readOnlyBoard } from "./http/bull-board-read-only";
import { idempotency } from "./http/idempotency";
import { retriedRequests } from "./http/retried-requests";
import { jsonBody } from "./http/body";
import { ExhaustedKeys, refuseExhaustedKeys } from "./http/exhausted-keys";
import { rateLimit, rateLimitBeforeLargeBodies } from "./http/rate-limit";
import { requestLogger } from "./http/request-logger";
import { metricsEndpoint, requestMetrics, type MetricsGuard } from "./http/metrics";
import { requestSpan } from "./http/request-span";
import { watchQueues } from "../shared/metrics/queues";
import { handleErrors } from "./http/errors";
import { platformErrorBodies, v1ErrorBodies } from "./http/error-bodies";
import { openAiErrorBodies } from "./http/openai-error-bodies";
import { isOpenAiPath } from "./routes/v1/openai/openai-paths";
import { EXECUTION_API_INFO } from "./openapi/document-info";
import { bullBoardRetryRouter } from "./routes/admin/bull-board-retry.router";
import { platformRouters } from "./routes/platform";
import { docsRouter } from "./routes/meta/docs.router";
import { healthRouter } from "./routes/meta/health.router";
import { rootRouter } from "./routes/meta/root.router";
import { admissionOf, defersRateLimitVerdict, holdsOpen, v1Routers } from "./routes/v1";
import { createRateLimiter, type RateLimiter } from "./limits/rate-limiter";
import { createOpenRequests, type OpenRequests } from "./limits/open-requests";
import { openRequestSlots } from "./http/open-request-slot";
import { processingHeartbeat } from "./http/processing-heartbeat";
import { MCP_PATH, mcpEndpoint } from "./mcp/mcp-endpoint";

/** Where people get API keys; every 401 points there. */
const howToGetKey = () => `${config.http.platformUrl}/platform/api-keys`;

/**
 * Bodies over this are read only after the limiter admits their request. Parsing and checking
 * 64 KB of JSON takes about a millisecond here, a round trip to the limiter a fraction of one;
 * the body limit allows a hundred times more.
 */
const LARGE_BODY_BYTES = 64 * 1024;

/** Routers' middleware, with their own 405 handling (`Allow` header) for known paths. */
function routes(routers: Router[]): Koa.Middleware[] {
  return routers.flatMap((router) => [router.routes(), router.allowedMethods()]) as Koa.Middleware[];
}

function mount(app: Koa, routers: Router[]): void {
  for (const middleware of routes(routers)) app.use(middleware);
}

/**
 * The execution API's routers: the open ones (health and the probes, the OpenAPI document and its page) and the
 * `/v1` ones behind JSON parsing, the API key and rate limits. The document describes them all.
 */
export function executionApiRouters(deps: ApiDeps, limiter: RateLimiter): { open: Router[]; v1: Router[] } {
  const open = [rootRouter(), healthRouter(deps)];
  const v1 = v1Routers(deps, limiter);
  return { open: [...open, docsRouter(EXECUTION_API_INFO, [...open, ...v1])], v1 };
}

/**
 * The execution API (`/v1`, `/health`, Bull Board) as a Koa app without a listener, so tests can
 * serve it on any port. Tests may pass their own rate limiter (tiny limits, an unreachable Redis),
 * their own open-request caps and their own `/metrics` guard (production mode, a token).
 */
export function createApiApp(
  deps: ApiDeps,
  options: {
    bullBoard?: boolean;
    rateLimiter?: RateLimiter;
    openRequests?: OpenRequests;
    metrics?: MetricsGuard;
    /** Bull Board's credentials and write mode; the configuration's by default. */
    admin?: typeof config.admin;
  } = {},
): Koa {
  const app = new Koa(proxySettings());
  app.silent = true; // the error middleware logs; Koa's default printer would log twice
  const limiter = options.rateLimiter ?? createRateLimiter(deps.redis);
  const openRequests = options.openRequests ?? createOpenRequests(deps.redis);
  const routers = executionApiRouters(deps, limiter);
  app.use(requestSpan([...routers.open, ...routers.v1]));
  app.use(requestMetrics([...routers.open, ...routers.v1]));
  app.use(requestLogger(logger));
  // OpenAI's SDKs read errors in OpenAI's shape: the OpenAI-compatible paths answer in it.
  const [v1Bodies, openAiBodies] = [v1ErrorBodies(howToGetKey()), openAiErrorBodies(howToGetKey())];
  const renderers = (ctx: Koa.Context) => (isOpenAiPath(ctx.path) ? openAiBodies : v1Bodies);
  app.use(handleErrors(renderers));
  // Operators' own: /metrics (its own guard, see docs/operations.md#metrics) and Bull Board.
  watchQueues(deps.queues.all());
  app.use(metricsEndpoint(options.metrics));
  if (options.bullBoard !== false) {
    const admin = options.admin ?? config.admin;
    app.use(basicAuth(BULL_BOARD_PATH, admin));
    if (!admin.writes) app.use(readOnlyBoard(BULL_BOARD_PATH));
    // The board's retries are answered in front of it, through the runs' state machine.
    app.use(bullBoardRetryRouter(deps).routes() as Koa.Middleware);
    app.use(bullBoard(deps.queues.shards, { readOnly: !admin.writes }));
  }
  mount(app, routers.open);

  // Everything under /v1 takes an API key and JSON; the rest (health, docs, admin) does not. The
  // body is read only once the key is known, and not at all for a key whose request windows this
  // process saw used up: such requests cost no reading or parsing, whatever body they announce. A
  // large or compressed body is read only once the limiter has admitted one point of its request;
  // the rest (a batch counts one point per item) is counted after the body, with the small ones'.
  // A request that streams or waits holds a slot of its key's and account's open-request caps
  // from its admission until it ends; the slot is taken by the limiter's verdict, so one Redis
  // script decides the caps and the rate limits together (a large body's before it is read).
  const exhaustedKeys = new ExhaustedKeys();
  const v1 = compose([
    apiKeyAuth(deps.keys),
    refuseExhaustedKeys(exhaustedKeys),
    openRequestSlots(openRequests, holdsOpen),
    processingHeartbeat(holdsOpen),
    rateLimitBeforeLargeBodies(limiter, { largeBodyBytes: LARGE_BODY_BYTES, exhaustedKeys }),
    jsonBody(config.http.bodyLimit),
    rateLimit(limiter, { deferVerdict: defersRateLimitVerdict, admission: admissionOf, exhaustedKeys }),
    idempotency(deps.ds, {
      syncWaitMs: config.http.syncWaitMs,
      renderError: (ctx, err) => renderers(ctx).render(err),
    }),
    retriedRequests(deps.redis),
    ...routes(routers.v1),
  ]);
  app.use((ctx, next) => (ctx.path.startsWith("/v1/") ? v1(ctx, next) : next()));
  // MCP clients call the same runs through `/mcp`, behind the same key, limits and bodies (docs/mcp-server.md).
  const limits = { limiter, openRequests, exhaustedKeys, largeBodyBytes: LARGE_BODY_BYTES, errors: v1Bodies };
  const mcp = mcpEndpoint(deps, limits);
  app.use((ctx, next) => (ctx.path === MCP_PATH ? mcp(ctx, next) : next()));
  return app;
}

/**
 * Forwarded headers are believed only from the operator's own proxies: Koa then takes a client's
 * address (`ctx.ip`, which sign-in attempts are counted under) from the last `TRUSTED_PROXY_HOPS`
 * entries of `X-Forwarded-For`, never from what the client itself wrote in front of them.
 */
function proxySettings(hops = config.http.trustedProxyHops): { proxy: boolean; maxIpsCount: number } {
  return { proxy: hops > 0, maxIpsCount: hops };
}

/**
 * The platform app (`/api`, listing pages, API-keys page, uploaded images), with the
 * platform error bodies (docs/api.md, "Errors"), on the deps' platform services (tests pass deps with their own).
 */
export function createPlatformApp(deps: ApiDeps): Koa {
  const app = new Koa(proxySettings());
  app.silent = true;
  app.use(requestLogger(logger));
  app.use(handleErrors(platformErrorBodies(howToGetKey())));
  mount(app, platformRouters(deps, deps.platform));
  return app;
}
