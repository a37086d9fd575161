import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validQuery } from "../../../http/validate-query";
import { documentRoutes } from "../../../openapi/operation";
import { usageReportQuerySchema, usageReportResponseSchema } from "../../../schemas/usage-report.schema";
import { usageReportOf, type UsageReportQuery } from "../../../runs/usage-report";

/** `GET /v1/usage/report`: the caller's account's usage by UTC day, model and kind of run. */
export function usageReportRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.get("/v1/usage/report", async (ctx) => {
    const query = validQuery<UsageReportQuery>(usageReportQuerySchema, ctx.query);
    ctx.body = await usageReportOf(deps.ds, ctx.state.auth, query);
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/usage/report",
    summary: "Your account's usage by day, model and kind of run",
    description:
      "The account's usage over whole UTC days: `period` (`day`, `week` or `month`, ending today) or a custom window (`start_date` and `end_date`, both included, at most a year; they win over `period`). `results` holds the days with activity, oldest first: the completion calls queued that day (`request_count`) and the LLM and tool calls that finished that day (calls, tokens, cost), by model. `by_model` and `by_kind` break the window down; each of `results`, `by_model` and `by_kind` adds up to `totals`. Every bad parameter is reported at once (422).",
    tags: ["Account"],
    access: "apiKey",
    query: usageReportQuerySchema,
    responses: { 200: { description: "The account's usage in the window", body: usageReportResponseSchema } },
  });
}
