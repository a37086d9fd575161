import Router from "@koa/router";
import { createChainConnection } from "../../../../shared/chain/connection";
import type { ApiDeps } from "../../../deps";
import { platformAuth } from "../../../middleware/platform-auth";
import { platformBody } from "../../../middleware/platform-body";
import type { PlatformServices } from "../../../services/platform-services";
import { launchListingToken, type CountPaidAgent } from "../../../services/token-launch/token-launch.service";

/**
 * E6 `POST /api/token/launch` (JSON or multipart, API key only). Any other method is a 405 with
 * `Allow: POST`, before authentication.
 */
export function tokenLaunchRouter(deps: ApiDeps, services: PlatformServices, countPaidAgent: CountPaidAgent): Router {
  const router = new Router();
  const launchDeps = { api: deps, storage: services.storage, connection: createChainConnection(), countPaidAgent };
  router.post("/api/token/launch", platformAuth(deps, { sessions: false }), platformBody({ fileField: "image" }), async (ctx) => {
    ctx.body = await launchListingToken(launchDeps, ctx.state.auth, ctx.request.body, ctx.state.upload ?? null);
  });
  return router;
}
