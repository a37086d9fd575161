import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import { completeChat } from "../../../runs/chat-completion";
import type { ChatCompletionRequest } from "../../../runs/chat-request";
import { chatCompletionSchema } from "../../../schemas/chat-completion.schema";
import { chatCompletionOperation } from "./chat.openapi";
import { CHAT_COMPLETIONS_PATH } from "./openai-paths";

/** `POST /v1/chat/completions` (OpenAI compatible); its rate-limit verdict is awaited by the run spine. */
export function chatRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(CHAT_COMPLETIONS_PATH, validateBody<ChatCompletionRequest>(chatCompletionSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeChat(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  return documentRoutes(router, chatCompletionOperation);
}
