import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import { documentRoutes } from "../../../openapi/operation";
import { callerIdentifier } from "../../../auth/platform-caller";
import { platformAuth } from "../../../http/auth";
import { jsonBody, platformBody } from "../../../http/body";
import type { PlatformState } from "../../../http/state";
import { validatePlatformBody } from "../../../http/validate";
import type { PlatformServices } from "../../../marketplace/platform-services";
import { launchListingToken } from "../../../token-launch/request-launch";
import { launchBatch } from "../../../token-launch/launch-batch";
import { batchAnswer, batchItem } from "./batch-items";
import { tokenLaunchBatchSchema, type TokenLaunchBatchBody } from "../../../schemas/token-launch-batch.schema";
import { config } from "../../../../shared/config";
import { tokenLaunchOperations } from "./token-launch.openapi";
import { tokenLaunchSchema, type TokenLaunchBody } from "../../../schemas/token-launch-request.schema";

/**
 * `POST /api/token/launch` (JSON or multipart, API key only) and `POST /api/token/launch/batch` (JSON, several
 * launches answered one by one). Any other method is a 405 with
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
  // JSON only: several images as files would make one multipart form of many launches.
  router.post(
    "/api/token/launch/batch",
    platformAuth(callerIdentifier(deps, { sessions: false })),
    jsonBody(config.http.bodyLimit),
    validatePlatformBody<TokenLaunchBatchBody>(tokenLaunchBatchSchema),
    async (ctx) => {
      const { tokens, private_key: defaultKey } = ctx.state.body;
      const items = tokens.map((item) => batchItem(item, defaultKey));
      const answer = batchAnswer(await launchBatch(deps, services, ctx.state.auth, items));
      ctx.status = answer.success ? 200 : 207;
      ctx.body = answer;
    },
  );
  return documentRoutes(router, ...tokenLaunchOperations);
}
