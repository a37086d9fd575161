import { documentRoutes } from "../openapi/operation";
import { listingPageOperations } from "./pages.openapi";
import Router from "@koa/router";
import type { ApiDeps } from "../deps";
import { presentAgentPage } from "./agent-page.presenter";
import { presentPromptPage } from "./prompt-page.presenter";
import { findLaunchedListing } from "../../shared/db/agent-listing-store";
import { findPromptPage } from "../../shared/db/prompt-listing-store";
import { listingPath } from "../marketplace/prompts/prompt-record";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf } from "./page-session";
import { renderNotFound, renderPage } from "./render";

/**
 * The public listing pages: `GET /prompt/{id}` (a marketplace prompt) and `GET /agent/{id}` (an
 * agent listing: one made by a token launch, or one listed with `add-agent`). A paid listing's
 * text is shown to its owner only; a pending or rejected one exists only for its owner, who sees
 * its review status and the moderator's reason; unknown, malformed and failed ids are 404 pages.
 */
export function listingPagesRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get("/prompt/:id", async (ctx) => {
    const viewerId = viewerOf(ctx)?.userId ?? null;
    const prompt = await findPromptPage(deps.ds, ctx.params.id, viewerId);
    if (!prompt) return renderNotFound(ctx, "prompt");
    // Agent listings were once given `/prompt/{id}` as their listing URL: those links keep working (a bundle's too).
    if (prompt.kind !== "prompt") {
      ctx.status = 301;
      return ctx.redirect(listingPath(prompt.id, prompt.kind));
    }
    renderPage(ctx, 200, "prompt", { prompt: presentPromptPage(prompt, viewerId) });
  });

  // Two kinds of agent listing share the path (their ids are UUIDs, never both): a token launch's, and `add-agent`'s.
  router.get("/agent/:id", async (ctx) => {
    const launched = await findLaunchedListing(deps.ds, ctx.params.id);
    if (launched) return renderPage(ctx, 200, "agent", { agent: presentAgentPage(launched) });
    const viewerId = viewerOf(ctx)?.userId ?? null;
    const listed = await findPromptPage(deps.ds, ctx.params.id, viewerId);
    if (!listed || listed.kind !== "agent") return renderNotFound(ctx, "agent listing");
    renderPage(ctx, 200, "prompt", { prompt: presentPromptPage(listed, viewerId) });
  });
  return documentRoutes(router, ...listingPageOperations);
}
