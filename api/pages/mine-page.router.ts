import Router from "@koa/router";
import type { Context } from "koa";
import type { PromptRow } from "../../shared/db/entities/prompt.entity";
import { findOwnListing, listOwnListings } from "../../shared/db/listing-pages-store";
import type { PlatformCaller } from "../auth/platform-caller";
import type { ApiDeps } from "../deps";
import { validPlatformBody } from "../http/validate";
import { editAgent } from "../marketplace/agents/agent-listings";
import type { PlatformServices } from "../marketplace/platform-services";
import { createPrompt } from "../marketplace/prompts/create-prompt";
import { crossFieldProblems, type PromptFields } from "../marketplace/prompts/prompt-record";
import { editPrompt, type PromptEdit } from "../marketplace/prompts/update-prompt";
import { addPromptSchema } from "../schemas/add-prompt.schema";
import { documentRoutes } from "../openapi/operation";
import { PlatformError } from "../platform-error";
import { editAgentSchema } from "../schemas/agent-listing-fields.schema";
import { editPromptSchema } from "../schemas/edit-prompt.schema";
import { editBodyOf, EMPTY_FORM, formOf, newPromptBodyOf, postedForm, type ListingForm } from "./listing-edit-form";
import { unstorableFormField, unstorableMessage } from "./storable-form";
import { presentListingCard } from "./listing-card.presenter";
import { minePageOperations } from "./marketplace-pages.openapi";
import { pageErrors } from "./page-errors";
import { formField, signedInForm } from "./page-forms";
import { pageSession, viewerOf, type PageViewer } from "./page-session";
import { renderNotFound, renderPage } from "./render";
import { renderSignIn } from "./sign-in-page";

const MINE_PATH = "/platform/mine";
/** How many of a seller's listings the page lists, newest first. */
const MINE_LENGTH = 100;
const SAVED_NOTICE = "Saved. A change to what buyers see waits for a moderator's review again.";
const CREATED_NOTICE = "Created. Your prompt waits for a moderator's review before it is on the marketplace.";

async function renderMine(ctx: Context, deps: Pick<ApiDeps, "ds">, viewer: PageViewer, notice: string | null) {
  const rows = await listOwnListings(deps.ds, viewer.userId, MINE_LENGTH);
  renderPage(ctx, 200, "mine", {
    listings: rows.map((row) => presentListingCard(row, { showReview: true })),
    limit: MINE_LENGTH,
    notice,
  });
}

function renderEdit(ctx: Context, status: number, row: PromptRow, form: ListingForm, error: string | null = null) {
  renderPage(ctx, status, "listing-edit", { listing: presentListingCard(row, { showReview: true }), form, error });
}

/** A page's signed-in person as the JSON routes know a caller with a session token. */
function callerOf(viewer: PageViewer): PlatformCaller {
  return { userId: viewer.userId, apiKeyId: null, tier: "free", via: "session" };
}

/**
 * Saves an edit through the JSON edit routes' own code: the route's schema, then `editPrompt` or
 * `editAgent` (duplicates, content validation, price, review: a change to an approved listing sends it
 * back to review, a rejection stays).
 */
async function saveEdit(
  deps: ApiDeps,
  services: PlatformServices,
  viewer: PageViewer,
  row: PromptRow,
  body: Record<string, unknown>,
): Promise<void> {
  if (row.kind === "agent") {
    await editAgent(deps, services, callerOf(viewer), validPlatformBody(editAgentSchema, body));
  } else {
    await editPrompt(deps, services, callerOf(viewer), validPlatformBody<PromptEdit>(editPromptSchema, body));
  }
}

/**
 * `/platform/mine`: a signed-in person's prompts and agents in every review status, with the
 * moderator's reason, an edit form for each that saves as `POST /api/edit-prompt` and
 * `/api/edit-agent` do, and a new-prompt form that creates as `POST /api/add-prompt` does.
 * Another person's listing, or an unknown id, is a 404 page.
 */
export function minePageRouter(deps: ApiDeps, services: PlatformServices): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get(MINE_PATH, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: MINE_PATH });
    const notice = ctx.query.saved === "1" ? SAVED_NOTICE : ctx.query.created === "1" ? CREATED_NOTICE : null;
    await renderMine(ctx, deps, viewer, notice);
  });

  router.get(`${MINE_PATH}/new`, async (ctx) => {
    if (!viewerOf(ctx)) return renderSignIn(ctx, 401, { next: `${MINE_PATH}/new` });
    renderPage(ctx, 200, "listing-new", { form: EMPTY_FORM, error: null });
  });

  // A new prompt is made as `POST /api/add-prompt` makes one: its schema and joined rules, then createPrompt
  // (duplicates, daily limits, content validation, price, review).
  router.post(`${MINE_PATH}/new`, signedInForm(`${MINE_PATH}/new`), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const posted = postedForm((name) => formField(ctx, name));
    const unstorable = unstorableFormField(ctx);
    if (unstorable)
      return renderPage(ctx, 400, "listing-new", { form: EMPTY_FORM, error: unstorableMessage(unstorable) });
    try {
      const fields = validPlatformBody<PromptFields>(addPromptSchema, newPromptBodyOf(posted), crossFieldProblems);
      await createPrompt(deps, services, callerOf(viewer), fields);
    } catch (err) {
      if (err instanceof PlatformError)
        return renderPage(ctx, err.status, "listing-new", { form: posted, error: err.message });
      throw err;
    }
    if (viewer.via === "header") return renderMine(ctx, deps, viewer, CREATED_NOTICE);
    ctx.status = 303;
    ctx.redirect(`${MINE_PATH}?created=1`);
  });

  router.get(`${MINE_PATH}/:id/edit`, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: MINE_PATH });
    const row = await findOwnListing(deps.ds, ctx.params.id, viewer.userId);
    if (!row) return renderNotFound(ctx, "listing of yours");
    renderEdit(ctx, 200, row, formOf(row));
  });

  router.post(`${MINE_PATH}/:id/edit`, signedInForm(MINE_PATH), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const row = await findOwnListing(deps.ds, ctx.params.id, viewer.userId);
    if (!row) return renderNotFound(ctx, "listing of yours");
    const unstorable = unstorableFormField(ctx);
    if (unstorable) return renderEdit(ctx, 400, row, formOf(row), unstorableMessage(unstorable));
    const posted = postedForm((name) => formField(ctx, name));
    const body = editBodyOf(row, posted);
    try {
      if (Object.keys(body).length > 1) await saveEdit(deps, services, viewer, row, body);
    } catch (err) {
      if (err instanceof PlatformError) return renderEdit(ctx, err.status, row, posted, err.message);
      throw err;
    }
    if (viewer.via === "header") return renderMine(ctx, deps, viewer, SAVED_NOTICE);
    ctx.status = 303;
    ctx.redirect(`${MINE_PATH}?saved=1`);
  });
  return documentRoutes(router, ...minePageOperations);
}
