import type { PromptRow } from "./entities/prompt.entity";
import { listedPrompt, shownTo } from "./prompt-visibility";
import { sql, type Queryable } from "./sql";

/** A bundle's member as a bundle record shows it. */
export type BundleItem = Pick<PromptRow, "id" | "kind" | "name" | "description" | "status">;

/**
 * Of these ids (UUIDs), the user's own listed prompts and agents (never a bundle, nor a prompt whose token is still
 * being launched), each with what a bundle shows of it; ids that are none of those are left out.
 */
export async function findOwnBundleableListings(db: Queryable, userId: string, ids: string[]): Promise<BundleItem[]> {
  return sql<BundleItem>(
    db,
    `SELECT id, kind, name, description, status FROM prompts
      WHERE id = ANY($1::uuid[]) AND user_id = $2 AND kind IN ('prompt', 'agent') AND ${listedPrompt()}`,
    [ids, userId],
  );
}

/** Makes these listings, in this order, a bundle's members (replacing any it had). */
export async function replaceBundleItems(tx: Queryable, bundleId: string, itemIds: string[]): Promise<void> {
  await sql(tx, `DELETE FROM bundle_items WHERE bundle_id = $1`, [bundleId]);
  await sql(
    tx,
    `INSERT INTO bundle_items (bundle_id, item_id, position)
     SELECT $1, item_id, position::int - 1 FROM unnest($2::uuid[]) WITH ORDINALITY AS given(item_id, position)`,
    [bundleId, itemIds],
  );
}

/** The members of these bundles, in each bundle's order, by bundle id (a bundle without members maps to nothing). */
export async function bundleItemsOf(db: Queryable, bundleIds: string[]): Promise<Map<string, BundleItem[]>> {
  const rows = await sql<BundleItem & { bundle_id: string }>(
    db,
    `SELECT b.bundle_id, p.id, p.kind, p.name, p.description, p.status
       FROM bundle_items b JOIN prompts p ON p.id = b.item_id
      WHERE b.bundle_id = ANY($1::uuid[])
      ORDER BY b.bundle_id, b.position`,
    [bundleIds],
  );
  const byBundle = new Map<string, BundleItem[]>();
  for (const { bundle_id, ...item } of rows) byBundle.set(bundle_id, [...(byBundle.get(bundle_id) ?? []), item]);
  return byBundle;
}

/**
 * The bundle with this id (a UUID) as `viewerId` (null: anonymous) may see it, by the marketplace's visibility rules
 * (see `shownTo`: others see it once it and every member are approved); null when it is not theirs to see.
 */
export async function findVisibleBundle(db: Queryable, id: string, viewerId: string | null): Promise<PromptRow | null> {
  const rows = await sql<PromptRow>(
    db,
    `SELECT * FROM prompts WHERE id = $1::uuid AND kind = 'bundle' AND ${shownTo({ viewer: "$2" })}`,
    [id, viewerId],
  );
  return rows[0] ?? null;
}
