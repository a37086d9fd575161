import Router from "@koa/router";
import Joi from "joi";
import { ValidationError } from "../../../../shared/errors";
import type { ApiDeps } from "../../../deps";
import { toIssues } from "../../../middleware/validate";
import { listRunLogs } from "../../../services/swarm-logs.service";

/** `?limit=` (1–1000, default 100) and `?offset=` (≥ 0, default 0); other parameters are ignored. */
const logsQuerySchema = Joi.object({
  limit: Joi.number().integer().min(1).max(1000).default(100),
  offset: Joi.number().integer().min(0).default(0),
}).unknown(true);

/** `GET /v1/swarm/logs`: the caller's API key's runs, newest first. */
export function logsRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router();
  router.get("/v1/swarm/logs", async (ctx) => {
    const { value, error } = logsQuerySchema.validate(ctx.query, { abortEarly: false, convert: true });
    if (error) throw new ValidationError(toIssues(error, "query"));
    const logs = await listRunLogs(deps.ds, ctx.state.auth, { limit: value.limit, offset: value.offset });
    ctx.body = { status: "success", count: logs.length, logs, timestamp: new Date().toISOString() };
  });
  return router;
}
