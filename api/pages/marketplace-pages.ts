import type Router from "@koa/router";
import type { ApiDeps } from "../deps";
import type { PlatformServices } from "../marketplace/platform-services";
import { homePageRouter } from "./home-page.router";
import { minePageRouter } from "./mine-page.router";
import { moderationPageRouter } from "./moderation-page.router";

/** The marketplace's pages on the platform app: the home page (browse and search), a seller's own listings with their edit forms, and the moderators' review queue. */
export function marketplacePageRouters(deps: ApiDeps, services: PlatformServices): Router[] {
  return [homePageRouter(deps), minePageRouter(deps, services), moderationPageRouter(deps)];
}
