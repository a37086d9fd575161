import { createHash } from "node:crypto";
import type { DataSource } from "typeorm";
import { sql } from "../../shared/db/sql";

/** A marketplace prompt as an agent publishes it (E7's fields, taken from the agent spec). */
export interface AgentPromptDraft {
  name: string;
  prompt: string;
  description: string | null;
  useCases: { title: string; description: string }[];
  /** Comma-separated. */
  tags: string;
  category: string | null;
  isFree: boolean;
  priceUsd: number | null;
}

/** sha-256 of the prompt text normalised as CONTRACT.md says: trimmed, whitespace collapsed, case-folded. */
export function promptContentHash(prompt: string): string {
  return createHash("sha256").update(prompt.trim().replace(/\s+/g, " ").toLowerCase()).digest("hex");
}

/**
 * Stores an agent's prompt as a pending marketplace prompt of the user (`source = 'agent'`) and
 * returns its id; when the user already has a prompt with the same normalised text, returns that
 * one's id instead (the `(user_id, content_hash)` unique index decides, so concurrent publications
 * of one text make one record).
 *
 * This is the narrow part of prompt creation publishing needs. It does not convert `price_usd` to
 * the network-currency `price`, count daily limits or score content: those belong to E7's prompt
 * creation, which should replace this function once it exists.
 */
export async function createAgentPrompt(ds: DataSource, userId: string, draft: AgentPromptDraft): Promise<string> {
  const hash = promptContentHash(draft.prompt);
  const [created] = await sql<{ id: string }>(
    ds,
    `INSERT INTO prompts (user_id, name, prompt, description, use_cases, tags, is_free, price_usd, category, content_hash, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'agent')
     ON CONFLICT (user_id, content_hash) DO NOTHING
     RETURNING id`,
    [userId, draft.name, draft.prompt, draft.description, JSON.stringify(draft.useCases), draft.tags, draft.isFree, draft.priceUsd, draft.category, hash],
  );
  if (created) return created.id;
  const [existing] = await sql<{ id: string }>(ds, `SELECT id FROM prompts WHERE user_id = $1 AND content_hash = $2`, [userId, hash]);
  // Deleted between the two statements: store it after all.
  return existing ? existing.id : createAgentPrompt(ds, userId, draft);
}
