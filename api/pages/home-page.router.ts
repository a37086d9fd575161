import Router from "@koa/router";
import type { Context } from "koa";
import { searchPrompts } from "../../shared/db/prompt-listing-store";
import type { ApiDeps } from "../deps";
import { PRICE_FILTERS, SORTS } from "../marketplace/prompts/query-prompts";
import { documentRoutes } from "../openapi/operation";
import { presentListingCard } from "./listing-card.presenter";
import { homePageOperations } from "./marketplace-pages.openapi";
import {
  DEFAULT_QUERY,
  LISTING_KINDS,
  marketplaceHref,
  marketplaceSearch,
  readMarketplaceQuery,
  RESULTS_PER_PAGE,
  type MarketplaceQuery,
} from "./marketplace-query";
import { pageErrors } from "./page-errors";
import { pageSession } from "./page-session";
import { renderPage } from "./render";

/** What the search form offers: the allow-listed values, in the order the form lists them. */
const CHOICES = { kinds: LISTING_KINDS, prices: PRICE_FILTERS, sorts: SORTS };

function renderHome(ctx: Context, status: number, query: MarketplaceQuery, extra: Record<string, unknown>): void {
  renderPage(ctx, status, "home", {
    query,
    tagsText: query.tags.join(", "),
    choices: CHOICES,
    results: [],
    problems: [],
    pages: null,
    ...extra,
  });
}

/**
 * `GET /`: the marketplace home. Visitors browse and search approved prompts and agents with a plain
 * GET form (search, kind, category, tags, free or paid, sort, page); a query string it cannot read is
 * a 400 page naming each problem. Everyone sees the same listings: a signed-in person's own pending
 * and rejected items are on their "mine" page, not here.
 */
export function homePageRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get("/", async (ctx, next) => {
    // The router also matches `//` here; only `/` itself is the home page.
    if (ctx.path !== "/") return next();
    const read = readMarketplaceQuery(ctx.query);
    if ("problems" in read) return renderHome(ctx, 400, DEFAULT_QUERY, { problems: read.problems });
    const { query } = read;
    const rows = await searchPrompts(deps.ds, marketplaceSearch(query), { userId: null, moderator: false });
    const hasNext = rows.length > RESULTS_PER_PAGE;
    renderHome(ctx, 200, query, {
      results: rows.slice(0, RESULTS_PER_PAGE).map((row) => presentListingCard(row)),
      pages: {
        current: query.page,
        previous: query.page > 1 ? marketplaceHref(query, query.page - 1) : null,
        next: hasNext ? marketplaceHref(query, query.page + 1) : null,
      },
    });
  });
  return documentRoutes(router, ...homePageOperations);
}
