import Router from "@koa/router";
import { config, type Config } from "../../../../shared/config";
import { availableModels } from "../../../runs/run-models";
import { documentRoutes } from "../../../openapi/operation";
import { modelsResponseSchema } from "../../../schemas/meta-response.schema";

/** `GET /v1/models/available`: the models this deployment can call (see `availableModels`). */
export function modelsRouter(cfg: Config = config): Router {
  const router = new Router();
  router.get("/v1/models/available", (ctx) => {
    ctx.body = availableModels(cfg);
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/models/available",
    summary: "The models this deployment can call",
    tags: ["Catalogue"],
    access: "apiKey",
    responses: {
      200: {
        description: "Usable model ids, and the whole catalogue with each model's availability",
        body: modelsResponseSchema,
      },
    },
  });
}
