import { EntitySchema } from "typeorm";

export const PROMPT_STATUSES = ["pending", "approved", "rejected"] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];

/** One use case of a prompt, as the platform API takes it. */
export interface UseCase {
  title: string;
  description: string;
}

/** A prompt's link, as the platform API takes it: a URL, or a named URL. */
export type Link = string | { name: string; url: string };

/** Where a prompt came from: `POST /api/add-prompt`, or an agent published with `publish_to_marketplace`. */
export type PromptSource = "api" | "agent";

/**
 * What a listing is: a prompt, an agent (its text the agent's definition, with its requirements and configuration), or
 * a bundle of the seller's prompts and agents (its members in `bundle_items`).
 */
export type ListingKind = "prompt" | "agent" | "bundle";

/** A package an agent needs, as the platform API takes it. */
export interface Requirement {
  package: string;
  installation: string;
}

/** A row of `prompts`: a marketplace listing, a prompt, an agent or a bundle (`kind`). */
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
  /** sha-256 of the normalised prompt text: one copy of a text per user. */
  content_hash: string;
  source: PromptSource;
  kind: ListingKind;
  /** An agent's programming language, if it says. */
  language: string | null;
  /** The packages an agent needs (empty for prompts). */
  requirements: Requirement[];
  /** An agent's definition as the agent API takes it (an AgentSpec), if given. */
  agent_config: Record<string, unknown> | null;
  review_count: number;
  rating_sum: number;
  created_at: Date;
  updated_at: Date;
}

export const PromptEntity = new EntitySchema<PromptRow>({
  name: "Prompt",
  tableName: "prompts",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    user_id: { type: "uuid" },
    name: { type: "text" },
    prompt: { type: "text" },
    description: { type: "text", nullable: true },
    use_cases: { type: "jsonb", default: () => "'[]'" },
    tags: { type: "text", nullable: true },
    is_free: { type: "boolean", default: true },
    price_usd: { type: "double precision", nullable: true },
    price: { type: "double precision", nullable: true },
    category: { type: "text", nullable: true },
    status: { type: "text", default: "pending" },
    requested_status: { type: "text", nullable: true },
    moderated_by: { type: "uuid", nullable: true },
    moderated_at: { type: "timestamptz", nullable: true },
    moderation_reason: { type: "text", nullable: true },
    tokenized_on: { type: "boolean", default: false },
    ticker: { type: "text", nullable: true },
    token_address: { type: "text", nullable: true },
    pool_address: { type: "text", nullable: true },
    image_url: { type: "text", nullable: true },
    file_path: { type: "text", nullable: true },
    links: { type: "jsonb", default: () => "'[]'" },
    seller_wallet_address: { type: "text", nullable: true },
    content_hash: { type: "char", length: 64 },
    source: { type: "text", default: "api" },
    kind: { type: "text", default: "prompt" },
    language: { type: "text", nullable: true },
    requirements: { type: "jsonb", default: () => "'[]'" },
    agent_config: { type: "jsonb", nullable: true },
    review_count: { type: "int", default: 0 },
    rating_sum: { type: "int", default: 0 },
    created_at: { type: "timestamptz", createDate: true },
    updated_at: { type: "timestamptz", updateDate: true },
  },
  uniques: [{ name: "prompts_user_content_key", columns: ["user_id", "kind", "content_hash"] }],
});
