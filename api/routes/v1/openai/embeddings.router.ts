import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import { completeEmbeddings } from "../../../runs/embeddings";
import type { EmbeddingBody } from "../../../runs/embedding-request";
import { embeddingRequestSchema } from "../../../schemas/embedding.schema";
import { embeddingsOperation } from "./embeddings.openapi";
import { EMBEDDINGS_PATH } from "./openai-paths";

/** `POST /v1/embeddings` (OpenAI compatible); its rate-limit verdict is awaited by the run spine. */
export function embeddingsRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(EMBEDDINGS_PATH, validateBody<EmbeddingBody>(embeddingRequestSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeEmbeddings(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  return documentRoutes(router, embeddingsOperation);
}
