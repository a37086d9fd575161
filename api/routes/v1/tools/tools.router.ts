import Router from "@koa/router";
import { config, type Config } from "../../../../shared/config";
import { offeredBuiltinTools } from "../../../../shared/tools/builtin-tools";
import { documentRoutes } from "../../../openapi/operation";
import { toolsResponseSchema } from "../../../schemas/tools-response.schema";

/** `GET /v1/tools/available`: the built-in tools this deployment offers (see `offeredBuiltinTools`). */
export function toolsRouter(cfg: Config = config): Router {
  const router = new Router();
  router.get("/v1/tools/available", (ctx) => {
    ctx.body = { status: "success", tools: offeredBuiltinTools(cfg.builtinTools) };
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/tools/available",
    summary: "The built-in tools this deployment offers",
    description:
      "`auto_search` is listed when the operator configured a search provider, `web_scraper` unless the operator turned it off. " +
      "`POST /v1/agent/completions` and `POST /v1/agent/batch/completions` refuse (400) a `tools_enabled` naming a built-in tool not listed here.",
    tags: ["Catalogue"],
    access: "apiKey",
    responses: { 200: { description: "The tools `tools_enabled` may name", body: toolsResponseSchema } },
  });
}
