import Router from "@koa/router";
import Joi from "joi";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validQuery } from "../../../http/validate-query";
import { documentRoutes } from "../../../openapi/operation";
import { agentListResponseSchema } from "../../../schemas/account-response.schema";
import { AGENTS_LIST_DEFAULT, AGENTS_LIST_MAX, listUsedAgents } from "../../../runs/agent-history";

const agentsListQuerySchema = Joi.object({
  limit: Joi.number()
    .integer()
    .min(1)
    .max(AGENTS_LIST_MAX)
    .default(AGENTS_LIST_DEFAULT)
    .description("The most configurations to return, the most recently used first"),
}).unknown(true);

/** `GET /v1/agents/list`: the agent configurations the caller's account has run, each once. */
export function agentsListRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.get("/v1/agents/list", async (ctx) => {
    const { limit } = validQuery<{ limit: number }>(agentsListQuerySchema, ctx.query);
    ctx.body = await listUsedAgents(deps.ds, ctx.state.auth, limit);
  });
  return documentRoutes(router, {
    method: "get",
    path: "/v1/agents/list",
    summary: "The agent configurations your account has run",
    description:
      "Every distinct agent configuration of the account's runs (an `agent_config` or `agents` of any run, batch items included, whichever of its keys made them), most recently used first, to reuse with a new task. Two uses are the same configuration when their specs are equal once null fields are left out: the task and the rest of the call are not part of it. `count` counts them all; `agents` holds at most `limit`. Secrets (MCP tokens and headers, credential-like `llm_args`) read `[redacted]`, and a marketplace prompt's text never comes back: such an agent keeps its `marketplace_prompt_id` instead.",
    tags: ["Account"],
    access: "apiKey",
    query: agentsListQuerySchema,
    responses: { 200: { description: "The account's agent configurations", body: agentListResponseSchema } },
  });
}
