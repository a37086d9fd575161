import Router from "@koa/router";
import { config } from "../../../../shared/config";
import type { ApiDeps } from "../../../deps";
import { jsonBody } from "../../../http/json-body";
import { moderatorOnly } from "../../../http/moderator-only";
import { platformAuth } from "../../../http/platform-auth";
import { validatePlatformBody } from "../../../http/platform-validate";
import { documentRoutes } from "../../../openapi/operation";
import { moderatePrompt } from "../../../marketplace/prompts/review";
import { moderatePromptSchema } from "./moderate-prompt.schema";
import { moderationOperations } from "./moderation.openapi";

/**
 * `POST /api/moderate-prompt`: a moderator approves or rejects a prompt. Authenticated like E7
 * (API key or session token); anyone who is not a moderator gets 403 before the body is read.
 */
export function moderationRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post(
    "/api/moderate-prompt",
    platformAuth(deps, { sessions: true }),
    moderatorOnly(deps.ds),
    jsonBody(config.http.bodyLimit),
    validatePlatformBody(moderatePromptSchema),
    async (ctx) => {
      ctx.body = await moderatePrompt(deps.ds, ctx.state.auth.userId, ctx.state.body);
    },
  );
  return documentRoutes(router, ...moderationOperations);
}
