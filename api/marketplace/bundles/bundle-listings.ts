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
 * `POST /api/v1/publish/bundle`: a bundle listing of the caller's own prompts and agents, created as a prompt is
 * (duplicate of the caller's bundles, today's limit, content validation, the seller's trust for a paid one, the price,
 * the image, then review), in the same table with `kind` bundle, its members written in the same transaction. The
 * description is the text content validation reads as a prompt's: the members were each validated on their own.
 */
export async function publishBundle(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  fields: BundleFields,
): Promise<PublishBundleResult> {
  await resolveBundleItems(deps.ds, caller.userId, fields.items);
  const { id } = await createPrompt(deps, services, caller, bundleAsListing(fields), {
    kind: "bundle",
    scoredText: fields.description ?? "",
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
  const current = await findOwnPrompt(deps.ds, id, caller.userId, { kind: "bundle" });
  if (!current) throw listingNotFound("bundle");
  if (newItems) await resolveBundleItems(deps.ds, caller.userId, newItems);
  const row = await editListing(
    deps,
    services,
    caller,
    { id, ...bundleAsListing({ ...fields, ...(newItems ? { items: newItems } : {}) }) },
    "bundle",
    {
      scoredText: (fields.description !== undefined ? fields.description : current.description) ?? "",
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
