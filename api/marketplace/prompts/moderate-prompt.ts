import type { DataSource } from "typeorm";
import { PlatformError } from "../../platform-error";
import { promptListingUrl } from "./listing-url";
import { toPromptRecord, type PromptRecord } from "./prompt-record";
import type { PromptRow } from "./prompt-row";
import { updatePrompt } from "./prompt-store";

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
 * becomes approved (listed in E4, E9 and on its page) or rejected (seen by its owner only), with
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
  const row = await ds.transaction(async (tx) => {
    const [prompt]: Pick<PromptRow, "user_id" | "updated_at">[] = await tx.query(
      `SELECT user_id, updated_at FROM prompts WHERE id = $1 FOR UPDATE`,
      [decision.prompt_id],
    );
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
    listing_url: promptListingUrl(row.id),
    updated_data: toPromptRecord(row, moderatorId, true),
  };
}
