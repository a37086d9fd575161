import Router from "@koa/router";
import { version } from "../../../package.json";
import { documentRoutes } from "../../openapi/operation";
import { rootResponseSchema } from "../../schemas/meta-response.schema";

/**
 * `GET /`: what this server is and where to read about it, for someone (or an SDK's `getRoot()`)
 * who knows only its address. Public like `/health`; the links are paths on this same server, so
 * they hold behind any proxy or public address.
 */
export function rootRouter(): Router {
  const router = new Router();
  router.get("/", (ctx) => {
    ctx.body = {
      name: "Apiary",
      version,
      description:
        "Runs LLM agent swarms and single agents behind a synchronous HTTP API compatible with the hosted Swarms API.",
      docs_url: "/docs",
      openapi_url: "/openapi.json",
      health_url: "/health",
      timestamp: new Date().toISOString(),
    };
  });
  return documentRoutes(router, {
    method: "get",
    path: "/",
    summary: "What this service is, and where its documentation is",
    tags: ["Meta"],
    access: "public",
    responses: { 200: { description: "The service's name, version and links", body: rootResponseSchema } },
  });
}
