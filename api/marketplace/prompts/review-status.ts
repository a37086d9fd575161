import { isDeepStrictEqual } from "node:util";
import type { ContentScore } from "./content-score";
import { PROMPT_VALUE_COLUMNS, type PromptRow, type PromptValues } from "./prompt-row";

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
