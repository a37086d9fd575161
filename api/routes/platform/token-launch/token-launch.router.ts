import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import { documentRoutes } from "../../../openapi/operation";
import { callerIdentifier } from "../../../auth/platform-caller";
import { platformAuth } from "../../../http/auth";
import { platformBody } from "../../../http/body";
import type { PlatformState } from "../../../http/state";
import { validatePlatformBody } from "../../../http/validate";
import type { PlatformServices } from "../../../marketplace/platform-services";
import { launchListingToken } from "../../../token-launch/request-launch";
import { tokenLaunchOperations } from "./token-launch.openapi";
import { tokenLaunchSchema, type TokenLaunchBody } from "../../../schemas/token-launch-request.schema";

/**
 * `POST /api/token/launch` (JSON or multipart, API key only). Any other method is a 405 with
 * `Allow: POST`, before authentication. A launch counts as a paid agent for the daily limit.
 */
export function tokenLaunchRouter(deps: ApiDeps, services: PlatformServices): Router {
  const router = new Router<PlatformState>();
  router.post(
    "/api/token/launch",
    platformAuth(callerIdentifier(deps, { sessions: false })),
    platformBody({ fileField: "image" }),
    validatePlatformBody<TokenLaunchBody>(tokenLaunchSchema),
    async (ctx) => {
      ctx.body = await launchListingToken(deps, services, ctx.state.auth, ctx.state.body, ctx.state.upload ?? null);
    },
  );
  return documentRoutes(router, ...tokenLaunchOperations);
}
