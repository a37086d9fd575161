import { CreatorKey, isPublicKey, keyMatchesWallet } from "../../../shared/chain/creator-key";
import { config } from "../../../shared/config";
import type {
  Link,
  ListingKind,
  PromptRow,
  PromptStatus,
  Requirement,
  UseCase,
} from "../../../shared/db/entities/prompt.entity";
import type { PromptValues } from "../../../shared/db/prompt-store";
import { PriceUnavailableError, usdToCurrency, type PriceSource } from "../../../shared/prices";
import type { DecodedImage } from "../../../shared/storage";
import { PlatformError, type FieldProblem } from "../../platform-error";
import { contentHash } from "./duplicates";

/** Prompt creation's body after validation (an edit gives any subset of it). The image is decoded, the key parsed. */
export interface PromptFields {
  name: string;
  prompt: string;
  description?: string | null;
  useCases: UseCase[];
  tags: string;
  is_free: boolean;
  price_usd?: number | null;
  category?: string | null;
  /** Only a request to the moderators (see review.ts). */
  status?: PromptStatus;
  tokenized_on: boolean;
  /** Uppercased. */
  ticker?: string | null;
  image_url?: string | null;
  /** A key of the object storage. */
  file_path?: string | null;
  image_base64?: DecodedImage | null;
  links: Link[];
  seller_wallet_address?: string | null;
  creator_wallet?: string | null;
  /** Never stored, logged or echoed; prints as its public key only. */
  private_key?: CreatorKey | null;
  /** An agent's fields (a prompt has none of them). */
  language?: string | null;
  requirements?: Requirement[];
  agent_config?: Record<string, unknown> | null;
}

/** The text content validation and duplicate detection look at. */
export interface PromptContent {
  name: string;
  prompt: string;
  description: string;
  useCases: UseCase[];
}

/** The text content of a prompt's fields (an absent description is empty). */
export function contentOf(fields: Pick<PromptFields, "name" | "prompt" | "description" | "useCases">): PromptContent {
  return { name: fields.name, prompt: fields.prompt, description: fields.description ?? "", useCases: fields.useCases };
}

const absent = (value: unknown) => value === undefined || value === null || value === "";

/**
 * The rules of prompt creation that join fields, checked on a whole record (a new prompt's body, or an edit's stored record
 * with the edit applied): rule 1, a price above 0 when not free; rule 2, `ticker`,
 * `creator_wallet` and a `private_key` that belongs to it when `tokenized_on`.
 */
export function crossFieldProblems(record: Partial<PromptFields>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (record.is_free === false && !(typeof record.price_usd === "number" && record.price_usd > 0)) {
    problems.push({
      path: "price_usd",
      message: "'price_usd' is required and must be greater than 0 when 'is_free' is false",
    });
  }
  if (record.tokenized_on === true) {
    for (const field of ["ticker", "creator_wallet", "private_key"] as const) {
      if (absent(record[field]))
        problems.push({ path: field, message: `'${field}' is required when 'tokenized_on' is true` });
    }
    const key = record.private_key;
    // A wallet that is no public key has its own problem; the key is compared only with a real one.
    if (
      key instanceof CreatorKey &&
      typeof record.creator_wallet === "string" &&
      isPublicKey(record.creator_wallet) &&
      !keyMatchesWallet(key, record.creator_wallet)
    ) {
      problems.push({ path: "private_key", message: "'private_key' does not belong to 'creator_wallet'" });
    }
  }
  return problems;
}

/** What a prompt costs: free prompts cost 0 in both currencies. */
export interface PromptPrice {
  price_usd: number;
  price: number;
}

/**
 * Prompt creation's price rule: `price = price_usd / <SOL price in USD>`. Without a price younger than the maximum
 * age there is no conversion at all: 503 `Price unavailable`, and the caller stores nothing.
 */
export async function pricePrompt(
  prices: PriceSource,
  isFree: boolean,
  priceUsd: number | null | undefined,
): Promise<PromptPrice> {
  if (isFree || !priceUsd) return { price_usd: 0, price: 0 };
  try {
    return { price_usd: priceUsd, price: usdToCurrency(priceUsd, await prices.usdPrice()) };
  } catch (err) {
    if (!(err instanceof PriceUnavailableError)) throw err;
    throw new PlatformError(
      503,
      "Price unavailable",
      `${err.message}; nothing was stored, try again shortly`,
      {},
      "PRICE_UNAVAILABLE",
    );
  }
}

const orNull = (value: string | null | undefined) =>
  value === undefined || value === null || value === "" ? null : value;

/**
 * The columns that the given fields set (all of them for a new prompt, the edited ones for an edit). Secrets
 * and request-only fields (`private_key`, `creator_wallet`, the image bytes) have no column.
 */
export function promptValues(
  fields: Partial<PromptFields>,
  price?: PromptPrice,
  image?: Pick<PromptValues, "image_url" | "file_path">,
): Partial<PromptValues> {
  const values: Partial<PromptValues> = {};
  if (fields.name !== undefined) values.name = fields.name;
  if (fields.prompt !== undefined) {
    values.prompt = fields.prompt;
    values.content_hash = contentHash(fields.prompt);
  }
  if (fields.description !== undefined) values.description = orNull(fields.description);
  if (fields.useCases !== undefined) values.use_cases = fields.useCases;
  if (fields.tags !== undefined) values.tags = fields.tags;
  if (fields.is_free !== undefined) values.is_free = fields.is_free;
  if (fields.category !== undefined) values.category = orNull(fields.category);
  // The owner's status is a request to the moderators; the review decides `status` (see review.ts).
  if (fields.status !== undefined) values.requested_status = fields.status;
  if (fields.tokenized_on !== undefined) values.tokenized_on = fields.tokenized_on;
  if (fields.ticker !== undefined) values.ticker = orNull(fields.ticker);
  if (fields.links !== undefined) values.links = fields.links;
  if (fields.seller_wallet_address !== undefined) values.seller_wallet_address = orNull(fields.seller_wallet_address);
  if (fields.language !== undefined) values.language = orNull(fields.language);
  if (fields.requirements !== undefined) values.requirements = fields.requirements;
  if (fields.agent_config !== undefined) values.agent_config = fields.agent_config;
  if (price) Object.assign(values, price);
  if (image) Object.assign(values, image);
  return values;
}

/** A listing's page on the platform, by kind: `/prompt/{id}`, `/agent/{id}` or `/bundle/{id}`. */
export function listingPath(id: string, kind: ListingKind = "prompt"): string {
  return `/${kind}/${id}`;
}

/** A listing's public page: `{platform_url}` and its `listingPath`. */
export function promptListingUrl(id: string, kind: ListingKind = "prompt"): string {
  return `${config.http.platformUrl}${listingPath(id, kind)}`;
}

/** The columns a prompt record shows as stored (the text of a paid prompt aside, see `toPromptRecord`). */
type ShownColumn =
  | "id"
  | "user_id"
  | "name"
  | "prompt"
  | "description"
  | "use_cases"
  | "tags"
  | "is_free"
  | "price_usd"
  | "price"
  | "category"
  | "status"
  | "tokenized_on"
  | "image_url"
  | "file_path"
  | "links"
  | "seller_wallet_address";

/** The platform API's Prompt record, in its field names; times as ISO 8601 text. */
export type PromptRecord = Pick<PromptRow, ShownColumn> & { created_at: string; updated_at: string };

/**
 * A stored prompt as the platform API shows it. The text of a paid prompt is what buyers pay
 * for: anyone but its owner gets `prompt` as an empty string (the field keeps its type), unless
 * `moderator` (who must read what they approve).
 */
export function toPromptRecord(row: PromptRow, viewerId: string | null, moderator = false): PromptRecord {
  const mayRead = row.is_free || row.user_id === viewerId || moderator;
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    prompt: mayRead ? row.prompt : "",
    description: row.description,
    use_cases: row.use_cases,
    tags: row.tags,
    is_free: row.is_free,
    price_usd: row.price_usd,
    price: row.price,
    category: row.category,
    status: row.status,
    tokenized_on: row.tokenized_on,
    image_url: row.image_url,
    file_path: row.file_path,
    links: row.links,
    seller_wallet_address: row.seller_wallet_address,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
