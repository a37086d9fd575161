import type Router from "@koa/router";
import type { ApiDeps } from "../../deps";
import { healthRouter } from "../meta/health.router";
import { apiKeysPageRouter } from "./pages/api-keys-page.router";
import { listingPagesRouter } from "./pages/listing-pages.router";
import { signInRouter } from "./pages/sign-in.router";

/**
 * Every router of the platform app (port 8081), in mount order. Each router brings its own body
 * parser and authentication, since E6 takes multipart, E9 may be anonymous and the pages are HTML.
 */
export function platformRouters(deps: ApiDeps): Router[] {
  return [healthRouter(deps), listingPagesRouter(deps), signInRouter(deps), apiKeysPageRouter(deps)];
}
