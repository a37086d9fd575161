import type { DataSource } from "typeorm";
import { PlatformError } from "../../platform-error";
import { addToRatingCounters, lockVisiblePrompt } from "../../../shared/db/prompt-store";
import { upsertRating } from "../../../shared/db/prompt-review-store";
import { transaction } from "../../../shared/db/sql";

export interface PromptRating {
  id: string;
  rating: number;
  comment?: string | null;
}

/** The rating endpoint's success body. */
export interface RatePromptResult {
  success: true;
  id: string;
  rating: number;
  review_count: number;
  average_rating: number;
}

/**
 * Rates a prompt (1–5): one rating per user and prompt, a second one replaces the first. Owners
 * cannot rate their own prompts (403); others see only approved prompts, so a prompt waiting for
 * review or rejected cannot be rated (404): ratings, which build a seller's trust, are of reviewed
 * content only. The prompt row is locked while its review and its counters change, so concurrent
 * ratings keep `review_count` and `rating_sum` exact.
 */
export async function ratePrompt(ds: DataSource, userId: string, input: PromptRating): Promise<RatePromptResult> {
  return transaction(ds, async (tx) => {
    const prompt = await lockVisiblePrompt(tx, input.id, userId);
    if (!prompt) {
      throw new PlatformError(404, "Not found", "There is no prompt with this id", {}, "PROMPT_NOT_FOUND");
    }
    if (prompt.user_id === userId)
      throw new PlatformError(403, "Forbidden", "You cannot rate your own prompt", {}, "OWN_PROMPT");
    const previous = await upsertRating(tx, {
      promptId: input.id,
      userId,
      rating: input.rating,
      comment: input.comment ?? null,
    });
    const counters = await addToRatingCounters(tx, input.id, {
      reviews: previous === null ? 1 : 0,
      ratingSum: input.rating - (previous ?? 0),
    });
    const average = Math.round((counters.rating_sum / counters.review_count) * 100) / 100;
    return {
      success: true,
      id: input.id,
      rating: input.rating,
      review_count: counters.review_count,
      average_rating: average,
    };
  });
}
