import { findOwnBundleableListings, type BundleItem } from "../../../shared/db/bundle-item-store";
import type { Queryable } from "../../../shared/db/sql";
import { platformValidationError } from "../../platform-error";

/**
 * The caller's listings a bundle's `items` name, in the order given. Each id must be one of the caller's own prompts
 * or agents, listed (not waiting for its token): an unknown id, another user's listing, a bundle, or one still being
 * launched is a 400 at `items.<index>`, with one message for all of them (an answer never tells whether another
 * user's listing exists). The schema has already refused duplicates and counts out of bounds.
 */
export async function resolveBundleItems(db: Queryable, userId: string, ids: string[]): Promise<BundleItem[]> {
  const found = new Map((await findOwnBundleableListings(db, userId, ids)).map((item) => [item.id, item]));
  const problems = ids.flatMap((id, index) =>
    found.has(id) ? [] : [{ path: `items.${index}`, message: `'items[${index}]' is none of your prompts or agents` }],
  );
  if (problems.length > 0) throw platformValidationError(problems);
  return ids.map((id) => found.get(id) as BundleItem);
}
