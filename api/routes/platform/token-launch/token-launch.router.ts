import Router from "@koa/router";
import { createChainConnection } from "../../../../shared/chain/connection";
import type { ApiDeps } from "../../../deps";
import { platformAuth } from "../../../middleware/platform-auth";
import { platformBody } from "../../../middleware/platform-body";
import { consumeDailyQuota } from "../../../services/daily-limits";
import type { PlatformServices } from "../../../services/platform-services";
import { launchListingToken, type TokenLaunchDeps } from "../../../services/token-launch/token-launch.service";

/**
 * E6 `POST /api/token/launch` (JSON or multipart, API key only). Any other method is a 405 with
 * `Allow: POST`, before authentication. A launch counts as a paid agent for the daily limit.
 */
export function tokenLaunchRouter(deps: ApiDeps, services: PlatformServices): Router {
  const router = new Router();
  const launchDeps: TokenLaunchDeps = {
    api: deps,
    storage: services.storage,
    connection: createChainConnection(),
    countPaidAgent: (manager, userId) => consumeDailyQuota(manager, userId, "paidAgents", services.dailyLimits),
  };
  router.post("/api/token/launch", platformAuth(deps, { sessions: false }), platformBody({ fileField: "image" }), async (ctx) => {
    ctx.body = await launchListingToken(launchDeps, ctx.state.auth, ctx.request.body, ctx.state.upload ?? null);
  });
  return router;
}
