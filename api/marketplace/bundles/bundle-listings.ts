import type { DataSource } from "typeorm";
import type { PlatformCaller } from "../../auth/platform-caller";
import type { ApiDeps } from "../../deps";
import { bundleItemsOf, replaceBundleItems } from "../../../shared/db/bundle-item-store";
import { findOwnPrompt } from "../../../shared/db/prompt-store";
import type { PlatformServices } from "../platform-services";
import { createPrompt } from "../prompts/create-prompt";
import { queryListings, type PromptQuery } from "../prompts/query-prompts";
import { editListing, listingNotFound } from "../prompts/update-prompt";
import { resolveBundleItems } from "./bundle-items";
import {
  bundleAsListing,
  bundleListingUrl,
  bundleScoredText,
  toBundleRecord,
  type BundleFields,
  type BundleRecord,
} from "./bundle-record";

/** Bundle publishing's success body. */
export interface PublishBundleResult {
  success: true;
  id: string;
  listing_url: string;
}

/** Bundle editing's success body: `updated_data` is the stored record after the update. */
export interface UpdateBundleResult extends PublishBundleResult {
  updated_data: BundleRecord;
}

/**
 * `POST /api/publish/bundle`: a bundle listing of the caller's own prompts and agents, created as a prompt is
 * (duplicate of the caller's bundles, today's limit, content validation of the name, description, use cases and the
 * members' names and descriptions, the seller's trust for a paid one, the price, the image, then review), in the same
 * table with `kind` bundle, its members written in the same transaction.
 */
export async function publishBundle(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  fields: BundleFields,
): Promise<PublishBundleResult> {
  const items = await resolveBundleItems(deps.ds, caller.userId, fields.items);
  const { id } = await createPrompt(deps, services, caller, bundleAsListing(fields), {
    kind: "bundle",
    scoredText: bundleScoredText(items),
    writeWith: (tx, row) => replaceBundleItems(tx, row.id, fields.items),
  });
  return { success: true, id, listing_url: bundleListingUrl(id) };
}

/**
 * `POST /api/edit-bundle`: a partial update of one of the caller's bundles, under prompt editing's rules; new `items`
 * replace the members (same rules as publishing) and, when they are other listings, send the bundle back to review.
 */
export async function editBundle(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  edit: Partial<BundleFields> & { id: string },
): Promise<UpdateBundleResult> {
  const { id, items: newItems, ...fields } = edit;
  if (!(await findOwnPrompt(deps.ds, id, caller.userId, { kind: "bundle" }))) throw listingNotFound("bundle");
  const items = newItems
    ? await resolveBundleItems(deps.ds, caller.userId, newItems)
    : ((await bundleItemsOf(deps.ds, [id])).get(id) ?? []);
  const row = await editListing(
    deps,
    services,
    caller,
    { id, ...bundleAsListing({ ...fields, ...(newItems ? { items: newItems } : {}) }) },
    "bundle",
    {
      scoredText: bundleScoredText(items),
      writeWith: newItems ? (tx) => replaceBundleItems(tx, id, newItems) : undefined,
    },
  );
  const stored = (await bundleItemsOf(deps.ds, [id])).get(id) ?? [];
  return { success: true, id, listing_url: bundleListingUrl(id), updated_data: toBundleRecord(row, stored) };
}

/** `POST /api/query-bundles`: `POST /api/query-prompts` over bundles, each with its members. */
export async function queryBundles(
  ds: DataSource,
  query: PromptQuery,
  viewerId: string | null,
): Promise<BundleRecord[]> {
  const { rows } = await queryListings(ds, query, viewerId, "bundle");
  const items = await bundleItemsOf(
    ds,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toBundleRecord(row, items.get(row.id) ?? []));
}
