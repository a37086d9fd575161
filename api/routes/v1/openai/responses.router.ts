import Router from "@koa/router";
import type { Context } from "koa";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { runRequest } from "../../../http/run-request";
import { validateBody } from "../../../http/validate";
import { validQuery } from "../../../http/validate-query";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import {
  cancelResponse,
  deleteResponse,
  listInputItems,
  readResponse,
  type InputItemsQuery,
  type ResponseReadQuery,
} from "../../../runs/responses/responses";
import { createResponse } from "../../../runs/responses/response-create";
import type { ResponseCreateBody } from "../../../runs/responses/response-request";
import { responseCreateSchema } from "../../../schemas/response.schema";
import { RESPONSES_PATH } from "./openai-paths";
import { inputItemsQuerySchema, responseOperations, responseReadQuerySchema } from "./responses.openapi";

const ONE = `${RESPONSES_PATH}/:response_id`;

/** Whether a GET (path in lower case, no trailing slash) streams a response's events, holding its connection open. */
export const streamsResponse = (path: string, query: Context["query"]): boolean =>
  /^\/v1\/responses\/[^/]+$/.test(path) && String(query.stream) === "true";

/**
 * OpenAI's Responses API: `POST /v1/responses` starts a response run; `GET`, `DELETE`,
 * `POST …/cancel` and `GET …/input_items` read, delete, cancel and list one of the caller's account.
 */
export function responsesRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(RESPONSES_PATH, validateBody<ResponseCreateBody>(responseCreateSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    await writeReply(ctx, await createResponse(deps, ctx.state.body, ctx.state.auth, prefer, hooks));
  });
  router.get(ONE, async (ctx) => {
    const query = validQuery<ResponseReadQuery>(responseReadQuerySchema, ctx.query);
    await writeReply(ctx, await readResponse(deps, ctx.params.response_id, ctx.state.auth.userId, query));
  });
  router.delete(ONE, async (ctx) => {
    ctx.body = await deleteResponse(deps, ctx.params.response_id, ctx.state.auth.userId);
  });
  router.post(`${ONE}/cancel`, async (ctx) => {
    ctx.body = await cancelResponse(deps, ctx.params.response_id, ctx.state.auth.userId);
  });
  router.get(`${ONE}/input_items`, async (ctx) => {
    const query = validQuery<InputItemsQuery>(inputItemsQuerySchema, ctx.query);
    ctx.body = await listInputItems(deps, ctx.params.response_id, ctx.state.auth.userId, query);
  });
  return documentRoutes(router, ...responseOperations);
}
