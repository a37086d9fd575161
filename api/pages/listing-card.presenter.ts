import type { ListingKind, PromptRow } from "../../shared/db/entities/prompt.entity";
import { listingPath } from "../marketplace/prompts/prompt-record";
import { formatUsd, pageDate, type PageDate } from "./page-format";

/** A listing as the marketplace, "mine" and moderation pages list it: never its text. */
export interface ListingCard {
  id: string;
  kind: ListingKind;
  href: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  price: string;
  rating: string | null;
  status: string;
  reviewReason: string | null;
  created: PageDate;
}

/** A listing's tags as written (comma-separated), trimmed, the empty ones left out. */
export function tagsOf(tags: string | null): string[] {
  return (tags ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}

function ratingOf(row: Pick<PromptRow, "review_count" | "rating_sum">): string | null {
  if (row.review_count <= 0) return null;
  const count = row.review_count;
  return `${(row.rating_sum / count).toFixed(1)} / 5 (${count} ${count === 1 ? "rating" : "ratings"})`;
}

/** Shapes a `prompts` row (a prompt or an agent) for a list; the moderator's reason only where the caller shows it. */
export function presentListingCard(row: PromptRow, options: { showReview?: boolean } = {}): ListingCard {
  return {
    id: row.id,
    kind: row.kind,
    href: listingPath(row.id, row.kind),
    name: row.name,
    description: row.description ?? "",
    category: row.category,
    tags: tagsOf(row.tags),
    price: row.is_free ? "Free" : row.price_usd === null ? "Paid" : formatUsd(row.price_usd),
    rating: ratingOf(row),
    status: row.status,
    reviewReason: options.showReview ? row.moderation_reason : null,
    created: pageDate(row.created_at),
  };
}
