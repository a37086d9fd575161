import Router from "@koa/router";
import { config } from "../../../../shared/config";
import type { ApiDeps } from "../../../deps";
import { callerIdentifier } from "../../../auth/platform-caller";
import { platformAuth, platformViewer } from "../../../http/auth";
import { jsonBody } from "../../../http/body";
import type { BodyState, PlatformState, ViewerState } from "../../../http/state";
import { validatePlatformBody } from "../../../http/validate";
import type { PlatformServices } from "../../../marketplace/platform-services";
import { createAgent, editAgent, queryAgents } from "../../../marketplace/agents/agent-listings";
import { agentCrossFieldProblems, type AgentFields } from "../../../marketplace/agents/agent-record";
import type { PromptQuery } from "../../../marketplace/prompts/query-prompts";
import { addAgentSchema, editAgentSchema } from "../../../schemas/agent-listing-fields.schema";
import { QUERY_PROMPTS_BODY_KB, queryPromptsSchema } from "../../../schemas/query-prompts.schema";
import { documentRoutes } from "../../../openapi/operation";
import { agentOperations } from "./agents.openapi";

/**
 * The agent marketplace: `POST /api/add-agent`, `POST /api/edit-agent` and `POST /api/query-agents`, with the prompt
 * routes' authentication, body limits and errors (see `promptsRouter`).
 */
export function agentsRouter(deps: ApiDeps, services: PlatformServices): Router {
  const router = new Router<ViewerState>();
  const identify = callerIdentifier(deps, { sessions: true });
  const signedIn = platformAuth(identify);
  const body = jsonBody(config.http.bodyLimit);
  const openBody = jsonBody(`${QUERY_PROMPTS_BODY_KB}kb`);

  router.post<PlatformState & BodyState<AgentFields>>(
    "/api/add-agent",
    signedIn,
    body,
    validatePlatformBody<AgentFields>(addAgentSchema, agentCrossFieldProblems),
    async (ctx) => {
      ctx.body = await createAgent(deps, services, ctx.state.auth, ctx.state.body);
    },
  );
  // An edit's joined rules need the stored agent, so the service checks them.
  router.post<PlatformState & BodyState<Partial<AgentFields> & { id: string }>>(
    "/api/edit-agent",
    signedIn,
    body,
    validatePlatformBody(editAgentSchema),
    async (ctx) => {
      ctx.body = await editAgent(deps, services, ctx.state.auth, ctx.state.body);
    },
  );
  router.post(
    "/api/query-agents",
    platformViewer(identify),
    openBody,
    validatePlatformBody<PromptQuery>(queryPromptsSchema),
    async (ctx) => {
      ctx.body = await queryAgents(deps.ds, ctx.state.body, ctx.state.auth?.userId ?? null);
    },
  );
  return documentRoutes(router, ...agentOperations);
}
