import Router from "@koa/router";
import type { Context, Middleware } from "koa";
import { listPendingReview } from "../../shared/db/listing-pages-store";
import { isModerator } from "../../shared/db/user-store";
import { isUuid } from "../../shared/db/uuid";
import type { ApiDeps } from "../deps";
import { validPlatformBody } from "../http/validate";
import { moderatePrompt, type ModerationDecision } from "../marketplace/prompts/review";
import { documentRoutes } from "../openapi/operation";
import { PlatformError } from "../platform-error";
import { moderatePromptSchema } from "../schemas/moderate-prompt.schema";
import { unstorableFormField, unstorableMessage } from "./storable-form";
import { presentListingCard } from "./listing-card.presenter";
import { moderationPageOperations } from "./marketplace-pages.openapi";
import { pageErrors } from "./page-errors";
import { formField, signedInForm } from "./page-forms";
import { pageSession, viewerOf, type PageViewer } from "./page-session";
import { renderMessage, renderPage } from "./render";
import { renderSignIn } from "./sign-in-page";

const MODERATION_PATH = "/platform/moderation";
/** How many waiting listings the queue shows at once: decided ones leave it, the next come up. */
const QUEUE_LENGTH = 50;
/** The longest search of the queue, as the marketplace's. */
const SEARCH_MAX_LENGTH = 100;
const DONE_NOTICES: Record<string, string> = {
  approved: "Approved: the listing is on the marketplace now.",
  rejected: "Rejected: only its owner sees it now, with your reason.",
};

/** Refuses (403 page) a signed-in viewer who is not a moderator; the role is read on every request. */
function moderatorsOnly(deps: Pick<ApiDeps, "ds">): Middleware {
  return async (ctx, next) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: MODERATION_PATH });
    if (!(await isModerator(deps.ds, viewer.userId)))
      return renderMessage(ctx, 403, "Moderators only", "Only moderators may see and decide the review queue.");
    await next();
  };
}

async function renderQueue(
  ctx: Context,
  deps: Pick<ApiDeps, "ds">,
  viewer: PageViewer,
  status: number,
  state: { notice?: string | null; error?: string | null; search?: string } = {},
): Promise<void> {
  const search = state.search ?? "";
  const rows = await listPendingReview(deps.ds, viewer.userId, QUEUE_LENGTH, search);
  renderPage(ctx, status, "moderation", {
    queue: rows.map((row) => ({
      ...presentListingCard(row),
      // Moderators read what they decide on, paid text included; the decision is about this version only.
      text: row.prompt,
      updatedAt: new Date(row.updated_at).toISOString(),
    })),
    queueLength: QUEUE_LENGTH,
    search,
    searchMaxLength: SEARCH_MAX_LENGTH,
    moderationPath: MODERATION_PATH,
    notice: null,
    error: null,
    ...state,
  });
}

/** The form's decision as the moderation route takes it; a rejection needs a reason here (its owner reads it). */
function decisionOf(ctx: Context): ModerationDecision | string {
  const unstorable = unstorableFormField(ctx);
  if (unstorable) return unstorableMessage(unstorable);
  const action = formField(ctx, "decision");
  if (action !== "approve" && action !== "reject") return "Choose approve or reject.";
  const reason = formField(ctx, "reason").trim();
  if (action === "reject" && !reason) return "Give a reason to reject a listing: its owner reads it.";
  try {
    return validPlatformBody<ModerationDecision>(moderatePromptSchema, {
      prompt_id: ctx.params.id,
      status: action === "approve" ? "approved" : "rejected",
      updated_at: formField(ctx, "updated_at"),
      reason,
    });
  } catch (err) {
    if (err instanceof PlatformError) return err.message;
    throw err;
  }
}

/**
 * `/platform/moderation`: the moderators' review queue, listings waiting for review oldest first,
 * each approved or rejected (with a reason, required) by a form that decides through the moderation
 * route's own code (`moderatePrompt`: the moderator's own listing refused, a listing changed since
 * the page was loaded not decided on). Anyone else gets a 403 page; a visitor, the sign-in page.
 */
export function moderationPageRouter(deps: Pick<ApiDeps, "ds" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get(MODERATION_PATH, moderatorsOnly(deps), async (ctx) => {
    const done = typeof ctx.query.done === "string" ? (DONE_NOTICES[ctx.query.done] ?? null) : null;
    // A moderator finds one listing among many waiting (one a seller asks about) by its name or description.
    const { q = "" } = ctx.query;
    if (typeof q !== "string" || q.length > SEARCH_MAX_LENGTH || q.includes("\0"))
      return renderQueue(ctx, deps, viewerOf(ctx)!, 400, {
        error: `Search with one text of at most ${SEARCH_MAX_LENGTH} characters.`,
      });
    await renderQueue(ctx, deps, viewerOf(ctx)!, 200, { notice: done, search: q.trim() });
  });

  router.post(`${MODERATION_PATH}/:id`, signedInForm(MODERATION_PATH), moderatorsOnly(deps), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    if (!isUuid(ctx.params.id)) return renderMessage(ctx, 404, "Not found", "There is no listing with this id.");
    const decision = decisionOf(ctx);
    if (typeof decision === "string") return renderQueue(ctx, deps, viewer, 400, { error: decision });
    try {
      await moderatePrompt(deps.ds, viewer.userId, decision);
    } catch (err) {
      if (err instanceof PlatformError) return renderQueue(ctx, deps, viewer, err.status, { error: err.message });
      throw err;
    }
    if (viewer.via === "header") return renderQueue(ctx, deps, viewer, 200, { notice: DONE_NOTICES[decision.status] });
    ctx.status = 303;
    ctx.redirect(`${MODERATION_PATH}?done=${decision.status}`);
  });
  return documentRoutes(router, ...moderationPageOperations);
}
