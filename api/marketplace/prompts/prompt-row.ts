import type { Link, PromptStatus, UseCase } from "./prompt-fields";

/** Where a prompt came from: E7, or an agent published with `publish_to_marketplace`. */
export type PromptSource = "api" | "agent";

/** A row of `prompts`. */
export interface PromptRow {
  id: string;
  user_id: string;
  name: string;
  prompt: string;
  description: string | null;
  use_cases: UseCase[];
  tags: string | null;
  is_free: boolean;
  price_usd: number | null;
  price: number | null;
  category: string | null;
  status: PromptStatus;
  /** The status the owner asked for: a request to moderators, never applied by itself. */
  requested_status: PromptStatus | null;
  /** The moderator who last decided on the prompt (null for an automatic approval, or none yet). */
  moderated_by: string | null;
  moderated_at: Date | null;
  moderation_reason: string | null;
  tokenized_on: boolean;
  ticker: string | null;
  token_address: string | null;
  pool_address: string | null;
  image_url: string | null;
  file_path: string | null;
  links: Link[];
  seller_wallet_address: string | null;
  content_hash: string;
  source: PromptSource;
  review_count: number;
  rating_sum: number;
  created_at: Date;
  updated_at: Date;
}

/** The columns a create or an edit writes (the rest are the table's own). */
export const PROMPT_VALUE_COLUMNS = [
  "name",
  "prompt",
  "description",
  "use_cases",
  "tags",
  "is_free",
  "price_usd",
  "price",
  "category",
  "status",
  "requested_status",
  "moderated_by",
  "moderated_at",
  "moderation_reason",
  "tokenized_on",
  "ticker",
  "image_url",
  "file_path",
  "links",
  "seller_wallet_address",
  "content_hash",
  "source",
] as const satisfies readonly (keyof PromptRow)[];

export type PromptValues = Pick<PromptRow, (typeof PROMPT_VALUE_COLUMNS)[number]>;
