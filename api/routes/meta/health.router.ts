import Router from "@koa/router";
import type { ApiDeps } from "../../deps";
import { documentRoutes } from "../../openapi/operation";
import {
  healthDownSchema,
  healthOkSchema,
  liveSchema,
  readyDownSchema,
  readyOkSchema,
} from "../../schemas/meta-response.schema";
import { checkHealth, checkReadiness } from "../../health";
import { checksFailedBody, readinessAnswer } from "../../../shared/health/probes";

/**
 * `GET /health`: 200 only when Postgres and Redis both answer (the hosted API's check). And the
 * orchestrator's probes, named as Kubernetes names its own: `GET /livez` (the process answers; it
 * never asks Postgres or Redis, so their outage restarts nothing) and `GET /readyz` (200 only while
 * this process can serve: Postgres, Redis and the schema answer, and it is not draining).
 */
export function healthRouter(deps: Pick<ApiDeps, "ds" | "redis">): Router {
  const router = new Router();
  router.get("/livez", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", async (ctx) => {
    const { status, body } = readinessAnswer(await checkReadiness(deps));
    ctx.set("Cache-Control", "no-store");
    ctx.status = status;
    ctx.body = body;
  });
  router.get("/health", async (ctx) => {
    const checks = await checkHealth(deps);
    if (checks.postgres && checks.redis) {
      ctx.body = { status: "ok" };
      return;
    }
    ctx.status = 503;
    ctx.body = checksFailedBody(checks, "Not answering");
  });
  const meta = { method: "get" as const, tags: ["Meta"], access: "public" as const };
  return documentRoutes(
    router,
    {
      ...meta,
      path: "/health",
      summary: "Whether the service can serve",
      responses: {
        200: { description: "Postgres and Redis answer", body: healthOkSchema },
        503: { description: "Postgres or Redis does not answer; `checks` says which", body: healthDownSchema },
      },
    },
    {
      ...meta,
      path: "/livez",
      summary: "Whether the process is alive (liveness probe)",
      responses: { 200: { description: "The process answers", body: liveSchema } },
    },
    {
      ...meta,
      path: "/readyz",
      summary: "Whether the process can serve (readiness probe)",
      responses: {
        200: { description: "Postgres and Redis answer, migrations are applied, not draining", body: readyOkSchema },
        503: { description: "A check failed; `checks` says which", body: readyDownSchema },
      },
    },
  );
}
