import { isDeepStrictEqual } from "node:util";
import type { DataSource } from "typeorm";
import type { PromptRow } from "../../../shared/db/entities/prompt.entity";
import {
  lockPromptVersion,
  PROMPT_VALUE_COLUMNS,
  updatePrompt,
  type PromptValues,
} from "../../../shared/db/prompt-store";
import { PlatformError } from "../../platform-error";
import type { ContentScore } from "./content-rules";
import { promptListingUrl, toPromptRecord, type PromptRecord } from "./prompt-record";
import { transaction } from "../../../shared/db/sql";

// A prompt's review: the status a create or an edit leads to (pending, or approved automatically by
// its score) and a moderator's decision. An owner's `status` is only ever a request.

/** `AUTO_APPROVE_MIN_SCORE`: null (the default) means every prompt waits for a moderator. */
export interface ModerationSettings {
  autoApproveMinScore: number | null;
}

/** The review columns a create or an edit decides (an owner's `status` is only ever `requested_status`). */
export type ReviewColumns = Pick<PromptValues, "status"> &
  Partial<Pick<PromptValues, "moderated_by" | "moderated_at" | "moderation_reason">>;

/** Columns that are the review's own, or follow from others (`price` from `price_usd` and the market). */
const NOT_REVIEWED = new Set<string>([
  "status",
  "requested_status",
  "moderated_by",
  "moderated_at",
  "moderation_reason",
  "price",
  "content_hash",
  "source",
]);

/** Everything a buyer sees of a listing: changing any of it needs a new review. */
const REVIEWED_COLUMNS = PROMPT_VALUE_COLUMNS.filter((c) => !NOT_REVIEWED.has(c));

/**
 * Automatic approval, when the operator opted in: only the scoring model's judgement counts (the
 * rules alone are a floor, not a review), and both its quality and its safety score must reach
 * the threshold. Null when the prompt must wait for a moderator.
 */
function autoApproval(settings: ModerationSettings, score: ContentScore | null): ReviewColumns | null {
  const threshold = settings.autoApproveMinScore;
  if (threshold === null || !score || score.scoredBy !== "model") return null;
  if (Math.min(score.quality, score.safety) < threshold) return null;
  return {
    status: "approved",
    moderated_by: null,
    moderated_at: new Date(),
    moderation_reason: `Approved automatically: quality ${score.quality}, safety ${score.safety} (threshold ${threshold})`,
  };
}

/** A new prompt's review: pending for a moderator, or approved automatically by its score. */
export function reviewOnCreate(settings: ModerationSettings, score: ContentScore): ReviewColumns {
  return autoApproval(settings, score) ?? { status: "pending" };
}

/** Whether an edit changes what buyers see of the listing (compared with the row as locked for the write). */
export function listingChanged(row: PromptRow, values: Partial<PromptValues>): boolean {
  return REVIEWED_COLUMNS.some((c) => c in values && !isDeepStrictEqual(values[c] ?? null, row[c] ?? null));
}

/**
 * The review an edit leads to, decided on the locked row so that a moderator's decision made
 * meanwhile is never overwritten with a stale one. A rejected prompt stays rejected (only a
 * moderator lifts that); a listing whose content changed goes back to review, so approved content
 * cannot be swapped for unreviewed content (unless the new content's score approves it
 * automatically); anything else keeps its status. `score` is the edit's content score, if it was scored.
 */
export function reviewOnEdit(
  settings: ModerationSettings,
  row: PromptRow,
  changed: boolean,
  score: ContentScore | null,
): ReviewColumns | null {
  if (row.status === "rejected" || !changed) return null;
  // Back in review: the earlier decision was about other content, so it no longer names anyone.
  return (
    autoApproval(settings, score) ?? {
      status: "pending",
      moderated_by: null,
      moderated_at: null,
      moderation_reason: null,
    }
  );
}

/** A moderator's decision on a prompt. */
export interface ModerationDecision {
  prompt_id: string;
  status: "approved" | "rejected";
  /** The `updated_at` of the record the moderator reviewed: the decision is about that version only. */
  updated_at: Date;
  reason?: string | null;
}

/** The moderation endpoint's success body: the decision, and the prompt as stored after it. */
export interface ModeratePromptResult {
  success: true;
  id: string;
  status: ModerationDecision["status"];
  listing_url: string;
  updated_data: PromptRecord;
}

/**
 * Applies a moderator's decision (the caller must be a moderator, see `moderatorOnly`): the prompt
 * becomes approved (listed by `POST /v1/marketplace/agents`, the prompt query and on its page) or rejected (seen by its owner only), with
 * who decided, when and why; the owner's pending request is settled. A moderator does not review
 * their own prompt (403). The row is locked, so an edit and a decision never interleave, and a
 * prompt changed since the version the moderator reviewed is not decided on (409): otherwise an
 * owner could swap the text while it waits and have the new one approved unread.
 */
export async function moderatePrompt(
  ds: DataSource,
  moderatorId: string,
  decision: ModerationDecision,
): Promise<ModeratePromptResult> {
  const row = await transaction(ds, async (tx) => {
    const prompt = await lockPromptVersion(tx, decision.prompt_id);
    if (!prompt) throw new PlatformError(404, "Not found", "There is no prompt with this id", {}, "PROMPT_NOT_FOUND");
    if (prompt.user_id === moderatorId)
      throw new PlatformError(403, "Forbidden", "Moderators do not review their own prompts", {}, "OWN_PROMPT");
    // Records show updated_at to the millisecond; the column keeps microseconds.
    const current = new Date(prompt.updated_at).getTime();
    if (current !== decision.updated_at.getTime()) {
      const now = new Date(current).toISOString();
      throw new PlatformError(
        409,
        "Conflict",
        `The prompt changed after the version you reviewed; it is now at updated_at ${now}: review it again`,
        { updated_at: now },
        "PROMPT_CHANGED",
      );
    }
    return updatePrompt(tx, decision.prompt_id, {
      status: decision.status,
      requested_status: null,
      moderated_by: moderatorId,
      moderated_at: new Date(),
      moderation_reason: decision.reason || null,
    });
  });
  return {
    success: true,
    id: row.id,
    status: decision.status,
    listing_url: promptListingUrl(row.id, row.kind),
    updated_data: toPromptRecord(row, moderatorId, true),
  };
}
