import { sql, type Queryable } from "./sql";

/** Stores a user's rating of a prompt, replacing their earlier one; returns the earlier rating, or null. */
export async function upsertRating(
  tx: Queryable,
  rating: { promptId: string; userId: string; rating: number; comment: string | null },
): Promise<number | null> {
  const previous = await sql<{ rating: number }>(
    tx,
    `SELECT rating FROM prompt_reviews WHERE prompt_id = $1 AND user_id = $2`,
    [rating.promptId, rating.userId],
  );
  await sql(
    tx,
    `INSERT INTO prompt_reviews (prompt_id, user_id, rating, comment) VALUES ($1, $2, $3, $4)
     ON CONFLICT (prompt_id, user_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, created_at = now()`,
    [rating.promptId, rating.userId, rating.rating, rating.comment],
  );
  return previous[0]?.rating ?? null;
}

/**
 * Ratings that count: of the seller's approved prompts, by another account (never the seller's
 * own) that was at least the minimum age when it rated. Measured at rating time, so accounts
 * made for the purpose cannot simply wait until they are old enough. An item counts when its
 * counted ratings average 4 or more; raters are counted over those items.
 */
const TRUSTED_RATINGS = `
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

/** How many of a seller's items are rated well by counted raters, and by how many distinct raters. */
export async function countTrustedRatings(
  db: Queryable,
  sellerId: string,
  minRaterAgeHours: number,
): Promise<{ ratedItems: number; distinctRaters: number }> {
  const rows = await sql<{ rated_items: number; distinct_raters: number }>(db, TRUSTED_RATINGS, [
    sellerId,
    minRaterAgeHours,
  ]);
  return { ratedItems: rows[0]?.rated_items ?? 0, distinctRaters: rows[0]?.distinct_raters ?? 0 };
}
