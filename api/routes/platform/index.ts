import type Router from "@koa/router";
import type { ApiDeps } from "../../deps";
import type { PlatformServices } from "../../services/platform-services";
import { healthRouter } from "../meta/health.router";
import { promptsRouter } from "./prompts/prompts.router";
import { tokenLaunchRouter } from "./token-launch/token-launch.router";
import { uploadsRouter } from "./uploads/uploads.router";

/**
 * Every router of the platform app (port 8081), in mount order. Each router brings its own body
 * parser and authentication, since E6 takes multipart, E9 may be anonymous and the pages are HTML.
 */
export function platformRouters(deps: ApiDeps, services: PlatformServices): Router[] {
  return [
    healthRouter(deps),
    promptsRouter(deps, services),
    tokenLaunchRouter(deps, services),
    ...(services.uploadsDir ? [uploadsRouter(services.uploadsDir)] : []),
  ];
}
