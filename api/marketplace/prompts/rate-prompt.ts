import type { DataSource } from "typeorm";
import { PlatformError } from "../../platform-error";
import { shownTo } from "./prompt-visibility";

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
  return ds.transaction(async (tx) => {
    const [prompt] = await tx.query(
      `SELECT user_id, status FROM prompts WHERE id = $1 AND ${shownTo({ viewer: "$2" })} FOR UPDATE`,
      [input.id, userId],
    );
    if (!prompt) {
      throw new PlatformError(404, "Not found", "There is no prompt with this id", {}, "PROMPT_NOT_FOUND");
    }
    if (prompt.user_id === userId)
      throw new PlatformError(403, "Forbidden", "You cannot rate your own prompt", {}, "OWN_PROMPT");
    const [previous] = await tx.query(`SELECT rating FROM prompt_reviews WHERE prompt_id = $1 AND user_id = $2`, [
      input.id,
      userId,
    ]);
    await tx.query(
      `INSERT INTO prompt_reviews (prompt_id, user_id, rating, comment) VALUES ($1, $2, $3, $4)
       ON CONFLICT (prompt_id, user_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, created_at = now()`,
      [input.id, userId, input.rating, input.comment ?? null],
    );
    const [[counters]] = await tx.query(
      `UPDATE prompts SET review_count = review_count + $2, rating_sum = rating_sum + $3 WHERE id = $1 RETURNING review_count, rating_sum`,
      [input.id, previous ? 0 : 1, input.rating - (previous?.rating ?? 0)],
    );
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
