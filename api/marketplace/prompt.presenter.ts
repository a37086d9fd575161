import type { MarketplacePromptRow } from "../../shared/db/prompt-listing-store";

/** The hosted API's MarketplacePrompt, field for field. */
export interface MarketplacePrompt {
  id: string;
  created_at: string;
  user_id: string;
  name: string;
  description: string;
  prompt: string;
  use_cases: Record<string, string>;
  status: string;
  tags: string;
  category: string;
  links: unknown[];
}

/**
 * The stored use cases (`[{title, description}]`) as the object the hosted API types `use_cases` as:
 * each title maps to its description, in stored order. Two use cases with the same title keep
 * both descriptions, joined by a blank line, so nothing stored is lost.
 */
export function useCasesObject(stored: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of Array.isArray(stored) ? stored : []) {
    if (!item || typeof item !== "object") continue;
    const { title, description } = item as { title?: unknown; description?: unknown };
    const key = typeof title === "string" ? title : "";
    const text = typeof description === "string" ? description : "";
    out[key] = key in out ? [out[key], text].filter(Boolean).join("\n\n") : text;
  }
  return out;
}

/**
 * One item of the marketplace listing (`POST /v1/marketplace/agents`). A paid prompt's text is
 * what its buyers pay for, so the listing carries it only to
 * its owner; everyone else gets an empty `prompt` and uses it through `marketplace_prompt_id`,
 * which the service applies without showing the text. Absent optional texts are empty strings,
 * as the hosted API types them as strings.
 */
export function presentMarketplacePrompt(row: MarketplacePromptRow, viewerId: string): MarketplacePrompt {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    user_id: row.user_id,
    name: row.name,
    description: row.description ?? "",
    prompt: row.is_free || row.user_id === viewerId ? row.prompt : "",
    use_cases: useCasesObject(row.use_cases),
    status: row.status,
    tags: row.tags ?? "",
    category: row.category ?? "",
    links: Array.isArray(row.links) ? row.links : [],
  };
}
