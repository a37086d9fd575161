import Router from "@koa/router";
import Joi from "joi";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validQuery } from "../../../http/validate-query";
import { documentRoutes } from "../../../openapi/operation";
import { usageResponseSchema } from "../../../schemas/usage-response.schema";
import { usageReport } from "../../../runs/usage";

/** `?days=` (1–90, default 30); other parameters are ignored. */
const usageQuerySchema = Joi.object({
  days: Joi.number().integer().min(1).max(90).default(30).description("How many UTC days, today included"),
}).unknown(true);

/** `GET /v1/usage`: the caller's account's spend by day, model and key, from the step ledger. */
export function usageRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.get("/v1/usage", async (ctx) => {
    const { days } = validQuery<{ days: number }>(usageQuerySchema, ctx.query);
    ctx.body = await usageReport(deps.ds, ctx.state.auth, days);
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/usage",
    summary: "Your account's spend by day, model and key",
    description:
      "Every finished LLM and tool call of the account's runs (whichever of its keys made them) in the last `days` UTC days, today included: calls, tokens and cost by day and model, by key (with each key's last use) and in total. Keys are named by id, name and last four characters, never in full.",
    tags: ["Account"],
    access: "apiKey",
    query: usageQuerySchema,
    responses: { 200: { description: "The account's usage", body: usageResponseSchema } },
  });
}
