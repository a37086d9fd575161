import { documentRoutes } from "../openapi/operation";
import { listingPageOperations } from "./pages.openapi";
import Router from "@koa/router";
import type { ApiDeps } from "../deps";
import { presentAgentPage } from "./agent-page.presenter";
import { presentPromptPage } from "./prompt-page.presenter";
import { findLaunchedListing } from "../../shared/db/agent-listing-store";
import { findPromptPage } from "../../shared/db/prompt-listing-store";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf } from "./page-session";
import { renderNotFound, renderPage } from "./render";

/**
 * The public listing pages: `GET /prompt/{id}` (a marketplace prompt) and `GET /agent/{id}` (an
 * agent listing made by a token launch). A paid prompt's text is shown to its owner only; a
 * rejected prompt exists only for its owner; unknown, malformed and failed ids are 404 pages.
 */
export function listingPagesRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get("/prompt/:id", async (ctx) => {
    const viewerId = viewerOf(ctx)?.userId ?? null;
    const prompt = await findPromptPage(deps.ds, ctx.params.id, viewerId);
    if (!prompt) return renderNotFound(ctx, "prompt");
    renderPage(ctx, 200, "prompt", { prompt: presentPromptPage(prompt, viewerId) });
  });

  router.get("/agent/:id", async (ctx) => {
    const listing = await findLaunchedListing(deps.ds, ctx.params.id);
    if (!listing) return renderNotFound(ctx, "agent listing");
    renderPage(ctx, 200, "agent", { agent: presentAgentPage(listing) });
  });
  return documentRoutes(router, ...listingPageOperations);
}
