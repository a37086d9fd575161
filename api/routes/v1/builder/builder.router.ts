import Router from "@koa/router";
import {
  EXECUTION_TYPES,
  type AgentGenerateRequest,
  type AutoSwarmBuilderRequest,
} from "../../../../shared/contracts/auto-swarm-builder";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import { completeAgentGenerate, completeAutoSwarmBuilder } from "../../../runs/builder-completion";
import { agentGenerateSchema, autoSwarmBuilderSchema } from "../../../schemas/builder-request.schema";
import { agentGenerateOperation, autoSwarmBuilderOperation, executionTypesOperation } from "./builder.openapi";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** The builder paths start runs: counted against the daily spend (see `admissionOf`). */
const AUTO_SWARM_BUILDER_PATH = "/v1/auto-swarm-builder/completions" satisfies RunPath;
const AGENT_GENERATE_PATH = "/v1/agents/auto-generate" satisfies RunPath;

/** The auto swarm builder and `POST /v1/agents/auto-generate`: designs made by the Builder. */
export function builderRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(AUTO_SWARM_BUILDER_PATH, validateBody<AutoSwarmBuilderRequest>(autoSwarmBuilderSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    await writeReply(ctx, await completeAutoSwarmBuilder(deps, ctx.state.body, ctx.state.auth, prefer, hooks));
  });
  router.get("/v1/auto-swarm-builder/execution-types", (ctx) => {
    ctx.body = [...EXECUTION_TYPES];
  });
  router.post(AGENT_GENERATE_PATH, validateBody<AgentGenerateRequest>(agentGenerateSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    await writeReply(ctx, await completeAgentGenerate(deps, ctx.state.body, ctx.state.auth, prefer, hooks));
  });
  return documentRoutes(router, autoSwarmBuilderOperation, executionTypesOperation, agentGenerateOperation);
}
