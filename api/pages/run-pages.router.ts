import Router from "@koa/router";
import type { ApiDeps } from "../deps";
import { documentRoutes } from "../openapi/operation";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf } from "./page-session";
import { runPagesOperations } from "./pages.openapi";
import { renderMessage, renderNotFound, renderPage } from "./render";
import { RUN_STATUSES, RUNS_PATH, runPageOf, runsPageOf, runsPageQuerySchema, type RunsPageQuery } from "./run-pages";
import { renderSignIn } from "./sign-in-page";
import { RUN_KINDS } from "../../shared/runs/run-kind-catalog";

/** Seconds between a running run's page reloading itself (a meta refresh: the pages run no script). */
const REFRESH_SECONDS = 3;

/**
 * `/platform/runs`: the signed-in user's runs, newest first, a page at a time, filtered by state
 * and kind; `/platform/runs/{id}`: one of them, its steps, answer or error, and a batch's items,
 * reloading itself while the run goes on. Someone else's run is a 404 page, as is no run.
 */
export function runPagesRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get(RUNS_PATH, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: RUNS_PATH });
    const { value, error } = runsPageQuerySchema.validate(ctx.query);
    if (error) return renderMessage(ctx, 400, "Request refused", `The runs page cannot show that: ${error.message}.`);
    const query = value as RunsPageQuery;
    const { runs, nextCursor } = await runsPageOf(deps.ds, viewer.userId, query);
    const filters = { status: query.status ?? "", kind: query.kind ?? "" };
    const next = nextCursor ? `${RUNS_PATH}?${new URLSearchParams({ ...filters, cursor: nextCursor })}` : null;
    renderPage(ctx, 200, "runs", {
      runs,
      next,
      paged: query.cursor !== undefined,
      filters,
      statuses: RUN_STATUSES,
      kinds: RUN_KINDS,
      runsPath: RUNS_PATH,
    });
  });

  router.get(`${RUNS_PATH}/:id`, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: ctx.path });
    const run = await runPageOf(deps.ds, viewer.userId, ctx.params.id);
    if (!run) return renderNotFound(ctx, "run of yours");
    renderPage(ctx, 200, "run", { run, runsPath: RUNS_PATH, refreshSeconds: run.going ? REFRESH_SECONDS : null });
  });
  return documentRoutes(router, ...runPagesOperations);
}
