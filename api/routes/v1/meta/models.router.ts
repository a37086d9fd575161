import Router from "@koa/router";
import { config, type Config } from "../../../../shared/config";
import { MODEL_CATALOG } from "../../../../shared/llm/model-catalog";
import { resolveModel } from "../../../../shared/llm/providers";
import { documentRoutes } from "../../../openapi/operation";
import { modelsResponseSchema } from "../../../schemas/meta-response.schema";

/** One catalogue model and whether the current configuration can serve it. */
export interface ModelAvailability {
  id: string;
  provider: string;
  available: boolean;
}

/** The catalogue, each model marked available when the provider registry resolves it (a key or gateway is set). */
export function modelAvailability(cfg: Config = config): ModelAvailability[] {
  return MODEL_CATALOG.map(({ id, provider }) => {
    let available = true;
    try {
      resolveModel(id, cfg);
    } catch {
      available = false;
    }
    return { id, provider, available };
  });
}

/**
 * `GET /v1/models/available`: `models` holds the ids usable now, as plain strings (what hosted-API
 * clients expect); `details` lists the whole catalogue with each model's provider and availability.
 */
export function modelsRouter(cfg: Config = config): Router {
  const router = new Router();
  router.get("/v1/models/available", (ctx) => {
    const details = modelAvailability(cfg);
    const models = details.filter((m) => m.available).map((m) => m.id);
    ctx.body = { success: true, models, count: models.length, details };
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
