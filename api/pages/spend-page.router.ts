import Router from "@koa/router";
import type { ApiDeps } from "../deps";
import { documentRoutes } from "../openapi/operation";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf } from "./page-session";
import { spendPageOperations } from "./pages.openapi";
import { renderMessage, renderPage } from "./render";
import { renderSignIn } from "./sign-in-page";
import { MAX_SPEND_DAYS, SPEND_PATH, spendPageOf, spendWindowOf } from "./spend-page";

/**
 * `/platform/spend`: the signed-in user's spend over a window of UTC days (`?start=&end=`, the
 * last 30 days by default), by day, key and model, each a bar chart beside its table. A window it
 * cannot show (not a real day, reversed, in the future, too long) is a 400 page saying why.
 */
export function spendPageRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get(SPEND_PATH, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: SPEND_PATH });
    const window = spendWindowOf(ctx.query);
    if ("refused" in window) return renderMessage(ctx, 400, "Request refused", window.refused);
    const spend = await spendPageOf(deps.ds, viewer.userId, window);
    renderPage(ctx, 200, "spend", { spend, spendPath: SPEND_PATH, maxDays: MAX_SPEND_DAYS });
  });
  return documentRoutes(router, ...spendPageOperations);
}
