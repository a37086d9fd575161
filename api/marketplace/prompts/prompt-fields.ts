import type { CreatorKey } from "../../../shared/chain/creator-key";
import type { DecodedImage } from "../../../shared/storage";

export const PROMPT_STATUSES = ["pending", "approved", "rejected"] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];

/** Spec: UseCase. */
export interface UseCase {
  title: string;
  description: string;
}

/** Spec: Link — a URL, or a named URL. */
export type Link = string | { name: string; url: string };

/** E7's body after validation (E8 gives any subset of it). The image is decoded, the key parsed. */
export interface PromptFields {
  name: string;
  prompt: string;
  description?: string | null;
  useCases: UseCase[];
  tags: string;
  is_free: boolean;
  price_usd?: number | null;
  category?: string | null;
  /** Only a request to the moderators (see review-status). */
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
}

/** The text content validation and duplicate detection look at. */
export interface PromptContent {
  name: string;
  prompt: string;
  description: string;
  useCases: UseCase[];
}

export function contentOf(fields: Pick<PromptFields, "name" | "prompt" | "description" | "useCases">): PromptContent {
  return { name: fields.name, prompt: fields.prompt, description: fields.description ?? "", useCases: fields.useCases };
}
