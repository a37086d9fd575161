import { promptListingUrl } from "../prompts/prompt-record";
import type { BundleItem } from "../../../shared/db/bundle-item-store";
import type { PromptRow } from "../../../shared/db/entities/prompt.entity";
import { toPromptRecord, type PromptFields, type PromptRecord } from "../prompts/prompt-record";

/** A bundle's body after validation (an edit gives any subset of it, with `id`): a listing's fields and its `items`. */
export type BundleFields = Omit<
  PromptFields,
  "prompt" | "tokenized_on" | "ticker" | "creator_wallet" | "private_key" | "language" | "requirements" | "agent_config"
> & {
  /** Ids of the seller's own prompts and agents, in the order the bundle shows them. */
  items: string[];
};

/**
 * A bundle's stored text: its member ids, sorted, one a line. The listing rules compare texts, so the duplicate rule
 * (the same text from the same user again) means the same members again, in any order, and changing the members is
 * changing what buyers get (a new review).
 */
function bundleText(itemIds: string[]): string {
  return [...itemIds].sort().join("\n");
}

/** The listing fields a bundle's body stands for: its text is its members (see `bundleText`); bundles are never tokenized. */
export function bundleAsListing(fields: BundleFields): PromptFields;
export function bundleAsListing(fields: Partial<BundleFields>): Partial<PromptFields>;
export function bundleAsListing(fields: Partial<BundleFields>): Partial<PromptFields> {
  const { items, ...rest } = fields;
  return items === undefined ? rest : { ...rest, prompt: bundleText(items), tokenized_on: false };
}

/** A bundle's public page: `{platform_url}/bundle/{id}`. */
export function bundleListingUrl(id: string): string {
  return promptListingUrl(id, "bundle");
}

/** The platform API's Bundle record: a listing's record with `items` (its members) for the text. */
export type BundleRecord = Omit<PromptRecord, "prompt" | "tokenized_on"> & { items: BundleItem[] };

/** A stored bundle as the platform API shows it, with its members in the seller's order. */
export function toBundleRecord(row: PromptRow, items: BundleItem[]): BundleRecord {
  const { prompt: _text, tokenized_on: _tokenized, ...record } = toPromptRecord(row, null);
  return { ...record, items };
}
