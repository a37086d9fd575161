import Joi from "joi";
import { isStorableText } from "../../shared/json/json-hazards";
import type { PromptSearch } from "../../shared/db/prompt-listing-store";
import { PRICE_FILTERS, SORTS } from "../marketplace/prompts/query-prompts";

/** Listings per page of the marketplace home. */
export const RESULTS_PER_PAGE = 12;
/** The last page a visitor may ask for: deep offsets cost the database and serve nobody. */
const MAX_PAGE = 1_000;
const MAX_TAGS = 5;
const MAX_TAG_LENGTH = 50;

export const LISTING_KINDS = ["all", "prompt", "agent", "bundle"] as const;

/**
 * The marketplace home's query string: every parameter optional, bounded and allow-listed (an
 * unknown one, or one given twice, is a 400 page). `sort`, `price` and the search bounds are the
 * prompt query's (`POST /api/query-prompts`), so the page and the API order and filter alike.
 */
export const marketplaceQuerySchema = Joi.object({
  q: Joi.string().trim().allow("").max(100).description("Words anywhere in the name or the description"),
  kind: Joi.string()
    .valid(...LISTING_KINDS)
    .default("all")
    .description("Prompts, agents, bundles or all of them"),
  category: Joi.string().trim().allow("").max(50).description("A category, case-insensitively"),
  tags: Joi.string()
    .trim()
    .allow("")
    .max(MAX_TAGS * (MAX_TAG_LENGTH + 2))
    .description(`Up to ${MAX_TAGS} comma-separated tags, each listing must carry all of them`),
  price: Joi.string()
    .valid(...PRICE_FILTERS)
    .default("all")
    .description("Free, paid or both"),
  sort: Joi.string()
    .valid(...SORTS)
    .default("newest")
    .description("The prompt query's orders"),
  page: Joi.number().integer().min(1).max(MAX_PAGE).default(1).description("From 1"),
}).messages({ "object.unknown": "{{#label}} is not a parameter of this page" });

/** The home page's parameters after validation. */
export interface MarketplaceQuery {
  q: string;
  kind: (typeof LISTING_KINDS)[number];
  category: string;
  tags: string[];
  price: (typeof PRICE_FILTERS)[number];
  sort: (typeof SORTS)[number];
  page: number;
}

/** The parameters a form shows when the query string could not be read. */
export const DEFAULT_QUERY: MarketplaceQuery = {
  q: "",
  kind: "all",
  category: "",
  tags: [],
  price: "all",
  sort: "newest",
  page: 1,
};

function tagsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** The query string read, or every problem with it, each in words a visitor can act on. */
export function readMarketplaceQuery(
  raw: Record<string, unknown>,
): { query: MarketplaceQuery } | { problems: string[] } {
  const repeated = Object.entries(raw)
    .filter(([, value]) => Array.isArray(value))
    .map(([name]) => `'${name}' is given more than once`);
  if (repeated.length > 0) return { problems: repeated };
  const unsearchable = Object.entries(raw)
    .filter(([, value]) => typeof value === "string" && !isStorableText(value))
    .map(([name]) => `'${name}' holds a character that cannot be searched for (a NUL character or a broken surrogate)`);
  if (unsearchable.length > 0) return { problems: unsearchable };
  const { value, error } = marketplaceQuerySchema.validate(raw, { abortEarly: false, convert: true });
  const problems = error ? error.details.map((d) => d.message.replace(/"/g, "'")) : [];
  const tags = tagsOf(typeof value?.tags === "string" ? value.tags : "");
  if (tags.length > MAX_TAGS) problems.push(`'tags' may name at most ${MAX_TAGS} tags`);
  if (tags.some((t) => t.length > MAX_TAG_LENGTH))
    problems.push(`each of 'tags' must be at most ${MAX_TAG_LENGTH} characters long`);
  if (problems.length > 0) return { problems };
  return {
    query: { ...(value as Omit<MarketplaceQuery, "tags">), q: value.q ?? "", category: value.category ?? "", tags },
  };
}

/**
 * The listing search a home page query stands for: approved listings only, whoever looks (a
 * signed-in person's own pending items are on their "mine" page), one more than a page to tell
 * whether a next page exists.
 */
export function marketplaceSearch(query: MarketplaceQuery): PromptSearch {
  return {
    kind: query.kind === "all" ? null : query.kind,
    search: query.q || null,
    category: query.category || null,
    tags: query.tags,
    isFree: query.price === "free" ? true : query.price === "paid" ? false : null,
    userId: null,
    sortBy: query.sort,
    limit: RESULTS_PER_PAGE + 1,
    offset: (query.page - 1) * RESULTS_PER_PAGE,
  };
}

/** The home page's address for a query, naming only what differs from the defaults. */
export function marketplaceHref(query: MarketplaceQuery, page = query.page): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.kind !== "all") params.set("kind", query.kind);
  if (query.category) params.set("category", query.category);
  if (query.tags.length) params.set("tags", query.tags.join(","));
  if (query.price !== "all") params.set("price", query.price);
  if (query.sort !== "newest") params.set("sort", query.sort);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `/?${search}` : "/";
}
