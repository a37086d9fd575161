import { PlatformError } from "../../platform/platform-error";
import type { Queryable } from "../daily-limits";

/** Items a seller needs rated 4 or more (on average, by other users) before selling. */
export const TRUSTED_ITEMS_REQUIRED = 2;
/** Each such item is worth this much of the 0–10 trustworthiness score. */
const POINTS_PER_ITEM = 10 / TRUSTED_ITEMS_REQUIRED;

/** A user's trustworthiness (0–10) and the count of their items rated 4 or more by others. */
export async function trustworthiness(db: Queryable, userId: string): Promise<{ score: number; ratedItems: number }> {
  // Owners cannot rate their own prompts, so every review counted here is another user's.
  const rows: { n: number }[] = await db.query(
    `SELECT count(*)::int AS n FROM prompts WHERE user_id = $1 AND review_count > 0 AND rating_sum >= 4 * review_count`,
    [userId],
  );
  const ratedItems = rows[0]?.n ?? 0;
  return { score: Math.min(10, ratedItems * POINTS_PER_ITEM), ratedItems };
}

/** Paid content needs a seller others have rated well: 403 with `trustworthiness` otherwise. */
export async function assertTrustedSeller(db: Queryable, userId: string): Promise<void> {
  const trust = await trustworthiness(db, userId);
  if (trust.ratedItems >= TRUSTED_ITEMS_REQUIRED) return;
  throw new PlatformError(
    403,
    "Content validation failed",
    `Paid content needs at least ${TRUSTED_ITEMS_REQUIRED} of your items rated 4 or more by other users; you have ${trust.ratedItems}. Publish free prompts first.`,
    { trustworthiness: trust.score, details: { rated_items: trust.ratedItems, required_items: TRUSTED_ITEMS_REQUIRED } },
    "INSUFFICIENT_TRUST",
  );
}
