import type { ListingKind } from "../../shared/db/entities/prompt.entity";
import type { PromptPageRecord } from "../../shared/db/prompt-listing-store";
import { tagsOf } from "./listing-card.presenter";
import { formatAmount, formatUsd, pageDate, safeHttpUrl, storedImagePath, type PageDate } from "./page-format";

/** The symbol of the network currency prompt prices are converted to. */
const NETWORK_CURRENCY = "SOL";

/** What the prompt page template prints (for a prompt or an agent listing); every string is escaped by the template. */
export interface PromptPageView {
  id: string;
  kind: ListingKind;
  /** An agent's programming language and the packages it needs (empty for prompts). */
  language: string | null;
  requirements: { package: string; installation: string }[];
  /** The moderator's reason, shown to the owner only. */
  reviewReason: string | null;
  name: string;
  description: string | null;
  useCases: { title: string; description: string }[];
  tags: string[];
  category: string | null;
  price: { free: true } | { free: false; usd: string | null; network: string | null };
  status: string;
  imageUrl: string | null;
  links: { label: string; url: string | null }[];
  rating: { average: string; count: number } | null;
  created: PageDate;
  token: { address: string; pool: string | null; ticker: string | null } | null;
  /** The prompt text, or why it is not shown. */
  text: { shown: true; value: string; ownerOnly: boolean } | { shown: false };
  isOwner: boolean;
}

function useCasesOf(value: unknown): PromptPageView["useCases"] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((u): u is Record<string, unknown> => typeof u === "object" && u !== null)
    .map((u) => ({ title: String(u.title ?? ""), description: String(u.description ?? "") }))
    .filter((u) => u.title || u.description);
}

/** A link is a URL string or `{name, url}` (as the platform API takes it); only http(s) URLs become links, others are shown as text. */
function linksOf(value: unknown): PromptPageView["links"] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((link) => {
    if (typeof link === "string") return [{ label: link, url: safeHttpUrl(link) }];
    if (typeof link === "object" && link !== null) {
      const { name, url } = link as { name?: unknown; url?: unknown };
      const label = typeof name === "string" && name ? name : typeof url === "string" ? url : "";
      return label ? [{ label, url: safeHttpUrl(url) }] : [];
    }
    return [];
  });
}

function requirementsOf(value: unknown): PromptPageView["requirements"] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null)
    .map((r) => ({ package: String(r.package ?? ""), installation: String(r.installation ?? "") }))
    .filter((r) => r.package);
}

function priceOf(p: PromptPageRecord): PromptPageView["price"] {
  if (p.is_free) return { free: true };
  return {
    free: false,
    usd: p.price_usd === null ? null : formatUsd(p.price_usd),
    network: p.price === null ? null : `${formatAmount(p.price)} ${NETWORK_CURRENCY}`,
  };
}

/** Shapes a prompt or agent listing row for its listing page, as seen by `viewerId`. */
export function presentPromptPage(p: PromptPageRecord, viewerId: string | null): PromptPageView {
  const isOwner = viewerId !== null && viewerId === p.user_id;
  return {
    id: p.id,
    kind: p.kind,
    language: p.language,
    requirements: requirementsOf(p.requirements),
    reviewReason: isOwner ? p.moderation_reason : null,
    name: p.name,
    description: p.description,
    useCases: useCasesOf(p.use_cases),
    tags: tagsOf(p.tags),
    category: p.category,
    price: priceOf(p),
    status: p.status,
    imageUrl: storedImagePath(p.image_url),
    links: linksOf(p.links),
    rating:
      p.review_count > 0 && p.rating_average !== null
        ? { average: p.rating_average.toFixed(1), count: p.review_count }
        : null,
    created: pageDate(p.created_at),
    token:
      p.tokenized_on && p.token_address ? { address: p.token_address, pool: p.pool_address, ticker: p.ticker } : null,
    text: p.prompt === null ? { shown: false } : { shown: true, value: p.prompt, ownerOnly: !p.is_free },
    isOwner,
  };
}
