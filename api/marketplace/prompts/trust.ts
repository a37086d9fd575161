import { PlatformError } from "../../platform-error";
import type { Queryable } from "../../limits/daily-limits";

/** Items a seller needs rated 4 or more (on average, by counted raters) before selling. */
export const TRUSTED_ITEMS_REQUIRED = 2;

/** `TRUST_MIN_RATER_AGE_HOURS` and `TRUST_MIN_DISTINCT_RATERS`: which ratings build a seller's trust. */
export interface TrustSettings {
  /** A rating counts only when its rater's account was at least this old when they rated. */
  minRaterAgeHours: number;
  /** The well-rated items must have been rated by at least this many different accounts. */
  minDistinctRaters: number;
}

/** A seller's standing: the 0–10 score and what it is made of. */
export interface Trust {
  score: number;
  ratedItems: number;
  distinctRaters: number;
}

/**
 * Ratings that count: of the seller's approved prompts, by another account (never the seller's
 * own) that was at least the minimum age when it rated. Measured at rating time, so accounts
 * made for the purpose cannot simply wait until they are old enough. An item counts when its
 * counted ratings average 4 or more; raters are counted over those items.
 */
const TRUST_QUERY = `
  WITH counted AS (
    SELECT r.prompt_id, r.user_id AS rater_id, r.rating
      FROM prompt_reviews r
      JOIN prompts p ON p.id = r.prompt_id
      JOIN users u ON u.id = r.user_id
     WHERE p.user_id = $1 AND p.status = 'approved' AND r.user_id <> p.user_id
       AND r.created_at - u.created_at >= make_interval(secs => $2::double precision * 3600)
  ), items AS (
    SELECT prompt_id FROM counted GROUP BY prompt_id HAVING avg(rating) >= 4
  )
  SELECT (SELECT count(*)::int FROM items) AS rated_items,
         (SELECT count(DISTINCT rater_id)::int FROM counted WHERE prompt_id IN (SELECT prompt_id FROM items)) AS distinct_raters`;

/**
 * A seller's trustworthiness: 10 once `TRUSTED_ITEMS_REQUIRED` approved items are rated 4 or more
 * by at least `minDistinctRaters` accounts old enough to count, and the share of the weaker of
 * the two requirements before that.
 */
export async function trustworthiness(db: Queryable, settings: TrustSettings, userId: string): Promise<Trust> {
  const rows: { rated_items: number; distinct_raters: number }[] = await db.query(TRUST_QUERY, [
    userId,
    settings.minRaterAgeHours,
  ]);
  const ratedItems = rows[0]?.rated_items ?? 0;
  const distinctRaters = rows[0]?.distinct_raters ?? 0;
  const share = Math.min(1, ratedItems / TRUSTED_ITEMS_REQUIRED, distinctRaters / settings.minDistinctRaters);
  return { score: Math.round(share * 100) / 10, ratedItems, distinctRaters };
}

/** Paid content needs a seller others have rated well: 403 with `trustworthiness` otherwise. */
export async function assertTrustedSeller(db: Queryable, settings: TrustSettings, userId: string): Promise<void> {
  const trust = await trustworthiness(db, settings, userId);
  if (trust.ratedItems >= TRUSTED_ITEMS_REQUIRED && trust.distinctRaters >= settings.minDistinctRaters) return;
  throw new PlatformError(
    403,
    "Content validation failed",
    `Paid content needs at least ${TRUSTED_ITEMS_REQUIRED} of your items rated 4 or more by other users: approved items, rated by at least ` +
      `${settings.minDistinctRaters} different users whose accounts were at least ${settings.minRaterAgeHours} hours old when they rated; ` +
      `you have ${trust.ratedItems} such items, rated by ${trust.distinctRaters} such users. Publish free prompts first.`,
    {
      trustworthiness: trust.score,
      details: {
        rated_items: trust.ratedItems,
        required_items: TRUSTED_ITEMS_REQUIRED,
        distinct_raters: trust.distinctRaters,
        required_raters: settings.minDistinctRaters,
        min_rater_age_hours: settings.minRaterAgeHours,
      },
    },
    "INSUFFICIENT_TRUST",
  );
}
