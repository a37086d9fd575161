import type { PromptRow } from "./prompt-row";

/** Spec: Prompt record (platform API), with the spec's field names. */
export interface PromptRecord {
  id: string;
  user_id: string;
  name: string;
  prompt: string;
  description: string | null;
  use_cases: PromptRow["use_cases"];
  tags: string | null;
  is_free: boolean;
  price_usd: number | null;
  price: number | null;
  category: string | null;
  status: PromptRow["status"];
  tokenized_on: boolean;
  image_url: string | null;
  file_path: string | null;
  links: PromptRow["links"];
  seller_wallet_address: string | null;
  created_at: string;
  updated_at: string;
}

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
