import Router from "@koa/router";
import type { AgentCompletionRequest } from "../../../../shared/contracts/agent-spec";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { documentRoutes } from "../../../openapi/operation";
import { completeAgent } from "../../../runs/agent-completion";
import { writeReply } from "../../../http/write-reply";
import { agentCompletionOperation } from "./agent.openapi";
import { agentCompletionSchema } from "../../../schemas/agent-request.schema";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** The agent completion's path; its rate-limit verdict is awaited by the run spine (see `defersRateLimitVerdict`). */
export const AGENT_COMPLETIONS_PATH = "/v1/agent/completions" satisfies RunPath;

/** `POST /v1/agent/completions`. */
export function agentRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(AGENT_COMPLETIONS_PATH, validateBody<AgentCompletionRequest>(agentCompletionSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeAgent(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  return documentRoutes(router, agentCompletionOperation);
}
