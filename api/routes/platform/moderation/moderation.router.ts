import Router from "@koa/router";
import { config } from "../../../../shared/config";
import type { ApiDeps } from "../../../deps";
import { callerIdentifier } from "../../../auth/platform-caller";
import { moderatorOnly, platformAuth } from "../../../http/auth";
import { jsonBody } from "../../../http/body";
import type { PlatformState } from "../../../http/state";
import { validatePlatformBody } from "../../../http/validate";
import { documentRoutes } from "../../../openapi/operation";
import { moderatePrompt, type ModerationDecision } from "../../../marketplace/prompts/review";
import { moderatePromptSchema } from "../../../schemas/moderate-prompt.schema";
import { moderationOperations } from "./moderation.openapi";

/**
 * `POST /api/moderate-prompt`: a moderator approves or rejects a prompt. Authenticated like prompt creation
 * (API key or session token); anyone who is not a moderator gets 403 before the body is read.
 */
export function moderationRouter(deps: ApiDeps): Router {
  const router = new Router<PlatformState>();
  router.post(
    "/api/moderate-prompt",
    platformAuth(callerIdentifier(deps, { sessions: true })),
    moderatorOnly(deps.ds),
    jsonBody(config.http.bodyLimit),
    validatePlatformBody<ModerationDecision>(moderatePromptSchema),
    async (ctx) => {
      ctx.body = await moderatePrompt(deps.ds, ctx.state.auth.userId, ctx.state.body);
    },
  );
  return documentRoutes(router, ...moderationOperations);
}
