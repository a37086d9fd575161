import type Router from "@koa/router";
import type { ApiDeps } from "../../deps";
import { PLATFORM_API_INFO } from "../../openapi/document-info";
import { docsRouter } from "../meta/docs.router";
import { healthRouter } from "../meta/health.router";
import { apiKeysPageRouter } from "../../pages/api-keys-page.router";
import { bundlePageRouter } from "../../pages/bundle-page.router";
import { listingPagesRouter } from "../../pages/listing-pages.router";
import { marketplacePageRouters } from "../../pages/marketplace-pages";
import { runPagesRouter } from "../../pages/run-pages.router";
import { spendPageRouter } from "../../pages/spend-page.router";
import { signInRouter } from "../../pages/sign-in.router";
import { oidcSignInRouter } from "../../pages/oidc-sign-in.router";
import { signUpRouter } from "../../pages/sign-up.router";
import { accountPageRouter } from "../../pages/account-page.router";
import type { PlatformServices } from "../../marketplace/platform-services";
import { agentsRouter } from "./agents/agents.router";
import { bundlesRouter } from "./bundles/bundles.router";
import { moderationRouter } from "./moderation/moderation.router";
import { promptsRouter } from "./prompts/prompts.router";
import { tokenLaunchRouter } from "./token-launch/token-launch.router";
import { imagesRouter } from "./uploads/images.router";
import { uploadsRouter } from "./uploads/uploads.router";

/**
 * Every router of the platform app (port 8081), in mount order, and last the OpenAPI document and
 * docs page built from them. Each router brings its own body parser and authentication, since the token launch
 * takes multipart, the prompt query may be anonymous and the pages are HTML; each describes its routes with
 * `documentRoutes` (a test fails for any route left undescribed).
 */
export function platformRouters(deps: ApiDeps, services: PlatformServices): Router[] {
  const routers = [
    healthRouter(deps),
    promptsRouter(deps, services),
    agentsRouter(deps, services),
    bundlesRouter(deps, services),
    moderationRouter(deps),
    tokenLaunchRouter(deps, services),
    ...(services.uploadsDir ? [uploadsRouter(services.uploadsDir)] : []),
    imagesRouter(services.storage),
    listingPagesRouter(deps),
    bundlePageRouter(deps),
    signInRouter(deps),
    oidcSignInRouter(deps),
    signUpRouter(deps),
    accountPageRouter(deps),
    apiKeysPageRouter(deps),
    ...marketplacePageRouters(deps, services),
    runPagesRouter(deps),
    spendPageRouter(deps),
  ];
  return [...routers, docsRouter(PLATFORM_API_INFO, routers)];
}
