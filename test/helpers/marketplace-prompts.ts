import { randomUUID } from "node:crypto";
import type { DataSource } from "typeorm";
import { createPrompt, type PromptRow } from "./factories";

export interface PromptFixture {
  userId: string;
  name?: string;
  prompt?: string;
  description?: string | null;
  status?: "pending" | "approved" | "rejected";
  isFree?: boolean;
  priceUsd?: number | null;
  useCases?: unknown[];
  tags?: string | null;
  category?: string | null;
  links?: unknown[];
  createdAt?: Date;
}

/**
 * Stores a marketplace prompt row directly (as review or prompt creation would leave it) and returns it: the
 * platform fixtures' insert, with defaults that make a complete, approved, listable prompt.
 */
export async function insertPrompt(ds: DataSource, fixture: PromptFixture) {
  const chosenId = randomUUID();
  const id = await createPrompt(ds, fixture.userId, {
    id: chosenId,
    name: fixture.name ?? `Prompt ${chosenId.slice(0, 8)}`,
    prompt: fixture.prompt ?? `You are a careful assistant ${chosenId}.`,
    description: fixture.description === undefined ? "A prompt for tests" : fixture.description,
    use_cases: (fixture.useCases ?? [{ title: "Testing", description: "Used by the tests" }]) as PromptRow["use_cases"],
    tags: fixture.tags === undefined ? "test,prompt" : fixture.tags,
    is_free: fixture.isFree ?? true,
    price_usd: fixture.priceUsd ?? null,
    category: fixture.category === undefined ? "testing" : fixture.category,
    status: fixture.status ?? "approved",
    links: (fixture.links ?? []) as PromptRow["links"],
    created_at: (fixture.createdAt ?? new Date()).toISOString(),
  });
  const [row] = await ds.query(`SELECT * FROM prompts WHERE id = $1`, [id]);
  return row as { id: string; prompt: string; user_id: string; created_at: Date };
}
