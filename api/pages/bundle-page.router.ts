import Joi from "joi";
import Router from "@koa/router";
import type { ApiDeps } from "../deps";
import { documentRoutes, type Operation } from "../openapi/operation";
import { bundleItemsOf, findVisibleBundle } from "../../shared/db/bundle-item-store";
import { isUuid } from "../../shared/db/uuid";
import { presentBundlePage } from "./bundle-page.presenter";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf } from "./page-session";
import { renderNotFound, renderPage } from "./render";

const bundlePageOperation: Operation = {
  method: "get",
  path: "/bundle/{id}",
  summary: "A marketplace bundle's listing page, its members linking to their own pages",
  tags: ["Pages"],
  access: "public",
  pathParams: Joi.object({ id: Joi.string().description("The bundle's UUID") }),
  responses: {
    200: { description: "The bundle", content: { "text/html": { schema: { type: "string" } } } },
    404: { description: "No such bundle, or not public", content: { "text/html": { schema: { type: "string" } } } },
  },
};

/**
 * `GET /bundle/{id}`, a bundle's `listing_url`: shown to anyone once it and every member are approved, else to its
 * owner only; unknown and malformed ids are 404 pages.
 */
export function bundlePageRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));
  router.get("/bundle/:id", async (ctx) => {
    const viewerId = viewerOf(ctx)?.userId ?? null;
    const bundle = isUuid(ctx.params.id) ? await findVisibleBundle(deps.ds, ctx.params.id, viewerId) : null;
    if (!bundle) return renderNotFound(ctx, "bundle");
    const items = (await bundleItemsOf(deps.ds, [bundle.id])).get(bundle.id) ?? [];
    renderPage(ctx, 200, "bundle", { bundle: presentBundlePage(bundle, items) });
  });
  return documentRoutes(router, bundlePageOperation);
}
