import Router from "@koa/router";
import { config } from "../../../../shared/config";
import type { ApiDeps } from "../../../deps";
import { callerIdentifier } from "../../../auth/platform-caller";
import { platformAuth, platformViewer } from "../../../http/auth";
import { jsonBody } from "../../../http/body";
import type { BodyState, PlatformState, ViewerState } from "../../../http/state";
import { validatePlatformBody } from "../../../http/validate";
import type { PlatformServices } from "../../../marketplace/platform-services";
import { editBundle, publishBundle, queryBundles } from "../../../marketplace/bundles/bundle-listings";
import type { BundleFields } from "../../../marketplace/bundles/bundle-record";
import { crossFieldProblems } from "../../../marketplace/prompts/prompt-record";
import type { PromptQuery } from "../../../marketplace/prompts/query-prompts";
import { editBundleSchema, publishBundleSchema } from "../../../schemas/bundle-fields.schema";
import { QUERY_PROMPTS_BODY_KB, queryPromptsSchema } from "../../../schemas/query-prompts.schema";
import { documentRoutes } from "../../../openapi/operation";
import { bundleOperations } from "./bundles.openapi";

/**
 * Bundles on the marketplace: `POST /api/v1/publish/bundle`, `POST /api/edit-bundle` and `POST /api/query-bundles`, with
 * the prompt routes' authentication, body limits and errors (see `promptsRouter`).
 */
export function bundlesRouter(deps: ApiDeps, services: PlatformServices): Router {
  const router = new Router<ViewerState>();
  const identify = callerIdentifier(deps, { sessions: true });
  const signedIn = platformAuth(identify);
  const body = jsonBody(config.http.bodyLimit);
  const openBody = jsonBody(`${QUERY_PROMPTS_BODY_KB}kb`);

  router.post<PlatformState & BodyState<BundleFields>>(
    "/api/v1/publish/bundle",
    signedIn,
    body,
    validatePlatformBody<BundleFields>(publishBundleSchema, crossFieldProblems),
    async (ctx) => {
      ctx.body = await publishBundle(deps, services, ctx.state.auth, ctx.state.body);
    },
  );
  // An edit's joined rules need the stored bundle, so the service checks them.
  router.post<PlatformState & BodyState<Partial<BundleFields> & { id: string }>>(
    "/api/edit-bundle",
    signedIn,
    body,
    validatePlatformBody(editBundleSchema),
    async (ctx) => {
      ctx.body = await editBundle(deps, services, ctx.state.auth, ctx.state.body);
    },
  );
  router.post(
    "/api/query-bundles",
    platformViewer(identify),
    openBody,
    validatePlatformBody<PromptQuery>(queryPromptsSchema),
    async (ctx) => {
      ctx.body = await queryBundles(deps.ds, ctx.state.body, ctx.state.auth?.userId ?? null);
    },
  );
  return documentRoutes(router, ...bundleOperations);
}
