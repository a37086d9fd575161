import Router from "@koa/router";
import Joi from "joi";
import { ValidationError } from "../../../../shared/errors";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { toIssues } from "../../../http/validate";
import { documentRoutes } from "../../../openapi/operation";
import { runLogsResponseSchema } from "../../../schemas/meta-response.schema";
import { listRunLogs } from "../../../runs/run-logs";

/** `?limit=` (1–1000, default 100) and `?offset=` (≥ 0, default 0); other parameters are ignored. */
const logsQuerySchema = Joi.object({
  limit: Joi.number().integer().min(1).max(1000).default(100).description("How many runs"),
  offset: Joi.number().integer().min(0).default(0).description("How many of the newest runs to skip"),
}).unknown(true);

/** `GET /v1/swarm/logs`: the caller's API key's runs, newest first. */
export function logsRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.get("/v1/swarm/logs", async (ctx) => {
    const { value, error } = logsQuerySchema.validate(ctx.query, { abortEarly: false, convert: true });
    if (error) throw new ValidationError(toIssues(error, "query"));
    ctx.body = await listRunLogs(deps.ds, ctx.state.auth, { limit: value.limit, offset: value.offset });
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/swarm/logs",
    summary: "Your key's runs, newest first",
    description:
      "Every run made with the calling API key (never another key's, even of the same account), with its request, output, usage and error.",
    tags: ["Account"],
    access: "apiKey",
    query: logsQuerySchema,
    responses: { 200: { description: "A page of runs", body: runLogsResponseSchema } },
  });
}
