import { randomUUID } from "node:crypto";
import type { DataSource } from "typeorm";
import { contentHash } from "../../api/services/prompts/content-hash";

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

/** Stores a marketplace prompt row directly (as review or E7 would leave it) and returns it. */
export async function insertPrompt(ds: DataSource, fixture: PromptFixture) {
  const id = randomUUID();
  const prompt = fixture.prompt ?? `You are a careful assistant ${id}.`;
  const [row] = await ds.query(
    `INSERT INTO prompts (id, user_id, name, prompt, description, use_cases, tags, is_free, price_usd, category, status, links, content_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     RETURNING *`,
    [
      id,
      fixture.userId,
      fixture.name ?? `Prompt ${id.slice(0, 8)}`,
      prompt,
      fixture.description === undefined ? "A prompt for tests" : fixture.description,
      JSON.stringify(fixture.useCases ?? [{ title: "Testing", description: "Used by the tests" }]),
      fixture.tags === undefined ? "test,prompt" : fixture.tags,
      fixture.isFree ?? true,
      fixture.priceUsd ?? null,
      fixture.category === undefined ? "testing" : fixture.category,
      fixture.status ?? "approved",
      JSON.stringify(fixture.links ?? []),
      contentHash(prompt),
      fixture.createdAt ?? new Date(),
    ],
  );
  return row as { id: string; prompt: string; user_id: string; created_at: Date };
}
