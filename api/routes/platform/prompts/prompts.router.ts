import Router from "@koa/router";
import { config } from "../../../../shared/config";
import type { ApiDeps } from "../../../deps";
import { callerIdentifier } from "../../../auth/platform-caller";
import { platformAuth, platformViewer } from "../../../http/auth";
import { jsonBody } from "../../../http/body";
import type { BodyState, PlatformState, ViewerState } from "../../../http/state";
import { validatePlatformBody } from "../../../http/validate";
import type { PlatformServices } from "../../../marketplace/platform-services";
import { createPrompt } from "../../../marketplace/prompts/create-prompt";
import { crossFieldProblems, type PromptFields } from "../../../marketplace/prompts/prompt-record";
import { queryPrompts, type PromptQuery } from "../../../marketplace/prompts/query-prompts";
import { ratePrompt, type PromptRating } from "../../../marketplace/prompts/rate-prompt";
import { editPrompt, type PromptEdit } from "../../../marketplace/prompts/update-prompt";
import { addPromptSchema } from "../../../schemas/add-prompt.schema";
import { editPromptSchema } from "../../../schemas/edit-prompt.schema";
import { QUERY_PROMPTS_BODY_KB, queryPromptsSchema } from "../../../schemas/query-prompts.schema";
import { ratePromptSchema } from "../../../schemas/rate-prompt.schema";
import { documentRoutes } from "../../../openapi/operation";
import { promptOperations } from "./prompts.openapi";

/**
 * The prompt marketplace: `POST /api/add-prompt`, `POST /api/edit-prompt`,
 * `POST /api/query-prompts` and `POST /api/rate-prompt`. Creation, editing and rating take an API key or a
 * session token; the query is open to anyone and shows approved prompts, and credentials, when sent, add
 * the caller's own prompts in any status (a moderator's, every prompt). Other methods on these
 * paths are 405 with `Allow: POST`.
 */
export function promptsRouter(deps: ApiDeps, services: PlatformServices): Router {
  // The prompt query is open to anyone: the router's state has the caller optional, the signed-in routes say they have one.
  const router = new Router<ViewerState>();
  const identify = callerIdentifier(deps, { sessions: true });
  const signedIn = platformAuth(identify);
  const body = jsonBody(config.http.bodyLimit);
  // The prompt query reads the body of anyone, signed in or not: a few filters, so a small limit (413 above it).
  const openBody = jsonBody(`${QUERY_PROMPTS_BODY_KB}kb`);

  router.post<PlatformState & BodyState<PromptFields>>(
    "/api/add-prompt",
    signedIn,
    body,
    validatePlatformBody(addPromptSchema, crossFieldProblems),
    async (ctx) => {
      ctx.body = await createPrompt(deps, services, ctx.state.auth, ctx.state.body);
    },
  );
  // An edit's joined rules need the stored prompt, so the service checks them.
  router.post<PlatformState & BodyState<PromptEdit>>(
    "/api/edit-prompt",
    signedIn,
    body,
    validatePlatformBody(editPromptSchema),
    async (ctx) => {
      ctx.body = await editPrompt(deps, services, ctx.state.auth, ctx.state.body);
    },
  );
  router.post(
    "/api/query-prompts",
    platformViewer(identify),
    openBody,
    validatePlatformBody<PromptQuery>(queryPromptsSchema),
    async (ctx) => {
      ctx.body = await queryPrompts(deps.ds, ctx.state.body, ctx.state.auth?.userId ?? null);
    },
  );
  router.post<PlatformState & BodyState<PromptRating>>(
    "/api/rate-prompt",
    signedIn,
    body,
    validatePlatformBody(ratePromptSchema),
    async (ctx) => {
      ctx.body = await ratePrompt(deps.ds, ctx.state.auth.userId, ctx.state.body);
    },
  );
  return documentRoutes(router, ...promptOperations);
}
