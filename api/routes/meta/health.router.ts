import Router from "@koa/router";
import type { ApiDeps } from "../../deps";
import { documentRoutes } from "../../openapi/operation";
import { healthDownSchema, healthOkSchema } from "../../schemas/meta-response.schema";
import { checkHealth } from "../../health";

/** `GET /health`: 200 only when Postgres and Redis both answer. */
export function healthRouter(deps: Pick<ApiDeps, "ds" | "redis">): Router {
  const router = new Router();
  router.get("/health", async (ctx) => {
    const checks = await checkHealth(deps);
    if (checks.postgres && checks.redis) {
      ctx.body = { status: "ok" };
      return;
    }
    const down = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    ctx.status = 503;
    ctx.body = {
      status: "unavailable",
      detail: `Not answering: ${down.join(", ")}`,
      code: "SERVICE_UNAVAILABLE",
      status_code: 503,
      checks,
    };
  });
  return documentRoutes(router, {
    method: "get",
    path: "/health",
    summary: "Whether the service can serve",
    tags: ["Meta"],
    access: "public",
    responses: {
      200: { description: "Postgres and Redis answer", body: healthOkSchema },
      503: { description: "Postgres or Redis does not answer; `checks` says which", body: healthDownSchema },
    },
  });
}
