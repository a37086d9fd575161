import { PlatformError } from "../../platform-error";
import { countTrustedRatings } from "../../../shared/db/prompt-review-store";
import type { Queryable } from "../../../shared/db/sql";

/** Items a seller needs rated 4 or more (on average, by counted raters) before selling. */
const TRUSTED_ITEMS_REQUIRED = 2;

/** `TRUST_MIN_RATER_AGE_HOURS` and `TRUST_MIN_DISTINCT_RATERS`: which ratings build a seller's trust. */
export interface TrustSettings {
  /** A rating counts only when its rater's account was at least this old when they rated. */
  minRaterAgeHours: number;
  /** The well-rated items must have been rated by at least this many different accounts. */
  minDistinctRaters: number;
}

/** A seller's standing: the 0–10 score and what it is made of. */
interface Trust {
  score: number;
  ratedItems: number;
  distinctRaters: number;
}

/**
 * A seller's trustworthiness: 10 once `TRUSTED_ITEMS_REQUIRED` approved items are rated 4 or more
 * by at least `minDistinctRaters` accounts old enough to count, and the share of the weaker of
 * the two requirements before that.
 */
async function trustworthiness(db: Queryable, settings: TrustSettings, userId: string): Promise<Trust> {
  // Which ratings count (another account, old enough when it rated, of approved items): see `countTrustedRatings`.
  const { ratedItems, distinctRaters } = await countTrustedRatings(db, userId, settings.minRaterAgeHours);
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
