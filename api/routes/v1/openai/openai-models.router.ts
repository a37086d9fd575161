import Router from "@koa/router";
import Joi from "joi";
import { documentRoutes, type Operation } from "../../../openapi/operation";
import { openAiError } from "../../../openapi/shared-parts";
import { openAiModelById, openAiModelList } from "../../../runs/openai-models";
import { openAiModelListSchema, openAiModelSchema } from "../../../schemas/openai-response.schema";
import { OPENAI_MODELS_PATH } from "./openai-paths";

/** `GET /v1/models` and `GET /v1/models/{model}` in OpenAI's shapes (the SDK's `models.list` and `models.retrieve`). */
export function openAiModelsRouter(): Router {
  const router = new Router();
  router.get(OPENAI_MODELS_PATH, (ctx) => {
    ctx.body = openAiModelList();
  });
  // After `GET /v1/models/available` (mounted earlier), which answers that path in its own shape.
  router.get(`${OPENAI_MODELS_PATH}/:model`, (ctx) => {
    ctx.body = openAiModelById(String(ctx.params.model));
  });
  const common: Pick<Operation, "tags" | "access" | "errorBodies"> = {
    tags: ["OpenAI compatible"],
    access: "apiKey",
    errorBodies: "openai",
  };
  return documentRoutes(
    router,
    {
      ...common,
      method: "get",
      path: OPENAI_MODELS_PATH,
      summary: "The models this deployment can call, in OpenAI's list shape",
      description: 'The same catalogue as `GET /v1/models/available`, as `{object: "list", data: [...]}`.',
      responses: { 200: { description: "The usable models", body: openAiModelListSchema } },
    },
    {
      ...common,
      method: "get",
      path: `${OPENAI_MODELS_PATH}/{model}`,
      summary: "One model of the list",
      description:
        "A model `GET /v1/models` lists (`owned_by` is its provider); any other id is 404, although chat completions also take ids a provider serves beyond the list.",
      pathParams: Joi.object({ model: Joi.string().description("A model id, e.g. `gpt-4.1`") }),
      responses: {
        200: { description: "The model", body: openAiModelSchema },
        404: openAiError("Not a listed model (`model_not_found`)"),
      },
    },
  );
}
