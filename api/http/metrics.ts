import type Router from "@koa/router";
import type { Context, Middleware } from "koa";
import { config } from "../../shared/config";
import { metricsAccess, refusalOf, type MetricsAccessPolicy } from "../../shared/metrics/access";
import { addProcessMetrics, secondsSince, webRegistry } from "../../shared/metrics/registry";
import { httpDuration, httpRequests } from "../../shared/metrics/web";
import { answerCause } from "./answer-cause";
import { BULL_BOARD_PATH } from "./bull-board";

const METRICS_PATH = "/metrics";

/** Who may read the web `/metrics`: `METRICS_TOKEN` and whether this is production (tests pass their own). */
export type MetricsGuard = Pick<MetricsAccessPolicy, "token" | "production">;

/** The label of a request no route template matched: raw paths would make a label value per id. */
const UNMATCHED = "unmatched";

/**
 * The route template a request is counted under: the one the router ran, or else (a request
 * refused before routing: 401, 429) the one it would have run, or `unmatched`. Never the raw path.
 */
export function routeOf(ctx: Context, routers: Router[]): string {
  if (ctx.path === METRICS_PATH) return METRICS_PATH;
  if (ctx.path === BULL_BOARD_PATH || ctx.path.startsWith(`${BULL_BOARD_PATH}/`)) return BULL_BOARD_PATH;
  const ran = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof ran === "string") return ran;
  for (const router of routers) {
    const layer = router.match(ctx.path, ctx.method).pathAndMethod.findLast((l) => l.methods.length > 0);
    if (layer) return String(layer.path);
  }
  return UNMATCHED;
}

/**
 * Counts every request of the execution API by route template, method, status and, for an error
 * answer, whose fault it is (`cause`), and times it until its answer is handed over. Goes first, so it sees the status the error middleware set.
 */
export function requestMetrics(routers: Router[]): Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const route = routeOf(ctx, routers);
      const method = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].includes(ctx.method)
        ? ctx.method
        : "OTHER";
      const cause = answerCause(ctx);
      httpRequests.inc({ route, method, status: String(ctx.status), ...(cause ? { cause } : {}) });
      httpDuration.observe({ route }, secondsSince(start));
    }
  };
}

/**
 * `GET /metrics`: the web process's metrics in Prometheus text. With `METRICS_TOKEN` set it needs
 * `Authorization: Bearer <token>` (401 otherwise); without it, it answers loopback clients (403 to
 * others), and in production it does not exist (404). Not under `/v1`: no API key, no rate limit.
 */
export function metricsEndpoint(
  guard: MetricsGuard = { token: config.metrics.token, production: config.env === "production" },
): Middleware {
  addProcessMetrics(webRegistry);
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    const access = metricsAccess(
      { ...guard, internalPort: false },
      ctx.get("authorization") || undefined,
      ctx.req.socket.remoteAddress,
      Boolean(ctx.get("x-forwarded-for") || ctx.get("forwarded")),
    );
    if (access !== "allowed") {
      const { status, message } = refusalOf(access);
      if (status === 401) ctx.set("WWW-Authenticate", 'Bearer realm="metrics"');
      ctx.status = status;
      ctx.type = "text/plain";
      ctx.body = message;
      return;
    }
    ctx.set("Cache-Control", "no-store");
    ctx.type = webRegistry.contentType;
    ctx.body = await webRegistry.metrics();
  };
}
