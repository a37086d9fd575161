import type { BundleItem } from "../../shared/db/bundle-item-store";
import type { PromptRow } from "../../shared/db/entities/prompt.entity";
import { formatUsd, pageDate, storedImagePath, type PageDate } from "./page-format";

/** What the bundle page template prints; every string is escaped by the template. */
export interface BundlePageView {
  name: string;
  description: string | null;
  price: string;
  status: string;
  category: string | null;
  tags: string[];
  imageUrl: string | null;
  created: PageDate;
  /** The members in the seller's order, each linking to its own listing page. */
  items: { name: string; kind: string; status: string; href: string }[];
}

/** Shapes a bundle and its members for the bundle page. */
export function presentBundlePage(bundle: PromptRow, items: BundleItem[]): BundlePageView {
  return {
    name: bundle.name,
    description: bundle.description,
    price: bundle.is_free || bundle.price_usd === null ? "Free" : formatUsd(bundle.price_usd),
    status: bundle.status,
    category: bundle.category,
    tags: (bundle.tags ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    imageUrl: storedImagePath(bundle.image_url),
    created: pageDate(bundle.created_at),
    items: items.map((item) => ({ name: item.name, kind: item.kind, status: item.status, href: `/prompt/${item.id}` })),
  };
}
