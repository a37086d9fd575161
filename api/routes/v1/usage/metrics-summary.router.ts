import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { documentRoutes } from "../../../openapi/operation";
import { metricsSummaryResponseSchema } from "../../../schemas/account-response.schema";
import { metricsSummary } from "../../../runs/metrics-summary";

/** `GET /v1/metrics/summary`: the caller's account's headline figures. */
export function metricsSummaryRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.get("/v1/metrics/summary", async (ctx) => {
    ctx.body = await metricsSummary(deps.ds, ctx.state.auth);
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/metrics/summary",
    summary: "Your account's headline figures",
    description:
      "How many distinct agent configurations the account has run (those of `GET /v1/agents/list`) and its completion calls: in all, succeeded, and queued in the last 24 hours and 7 days. A completion call is a run of any completion endpoint; a batch counts each of its items, and token launches are not completions.",
    tags: ["Account"],
    access: "apiKey",
    responses: { 200: { description: "The account's figures", body: metricsSummaryResponseSchema } },
  });
}
