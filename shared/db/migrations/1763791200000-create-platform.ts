import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The platform's tables: marketplace prompts and their reviews, per-user daily counters, agent
 * listings created by token launches, and the launches themselves. Private keys are never stored.
 */
export class CreatePlatform1763791200000 implements MigrationInterface {
  name = "CreatePlatform1763791200000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE prompts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      prompt text NOT NULL,
      description text,
      use_cases jsonb NOT NULL DEFAULT '[]',
      tags text,
      is_free boolean NOT NULL DEFAULT true,
      price_usd double precision,
      price double precision,
      category text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected')),
      tokenized_on boolean NOT NULL DEFAULT false,
      ticker text,
      token_address text,
      pool_address text,
      image_url text,
      file_path text,
      links jsonb NOT NULL DEFAULT '[]',
      seller_wallet_address text,
      -- sha-256 of the normalised prompt text (trimmed, whitespace collapsed, case-folded)
      content_hash char(64) NOT NULL,
      -- where it came from: the platform API, or an agent published with publish_to_marketplace
      source text NOT NULL DEFAULT 'api' CHECK (source IN ('api','agent')),
      review_count int NOT NULL DEFAULT 0,
      rating_sum int NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    // One copy of a text per user: concurrent duplicates lose on this index, not on a race.
    await q.query(`CREATE UNIQUE INDEX prompts_user_content_key ON prompts (user_id, content_hash)`);
    await q.query(`CREATE INDEX prompts_status_created_idx ON prompts (status, created_at DESC)`);
    await q.query(`CREATE INDEX prompts_user_created_idx ON prompts (user_id, created_at DESC)`);
    await q.query(`CREATE INDEX prompts_category_idx ON prompts (lower(category))`);

    await q.query(`CREATE TABLE prompt_reviews (
      prompt_id uuid NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
      comment text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (prompt_id, user_id)
    )`);

    await q.query(`CREATE TABLE daily_usage (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      day date NOT NULL,
      paid_prompts int NOT NULL DEFAULT 0,
      paid_agents int NOT NULL DEFAULT 0,
      free_content int NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, day)
    )`);

    await q.query(`CREATE TABLE agent_listings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL,
      ticker text NOT NULL,
      code text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      image_url text,
      status text NOT NULL DEFAULT 'launching' CHECK (status IN ('launching','launched','failed')),
      token_address text,
      pool_address text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX agent_listings_user_created_idx ON agent_listings (user_id, created_at DESC)`);

    await q.query(`CREATE TABLE token_launches (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      run_id uuid REFERENCES runs(id) ON DELETE SET NULL,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      listing_id uuid REFERENCES agent_listings(id) ON DELETE CASCADE,
      prompt_id uuid REFERENCES prompts(id) ON DELETE CASCADE,
      network text NOT NULL,
      launcher text NOT NULL,
      creator_wallet text NOT NULL,
      name text NOT NULL,
      ticker text NOT NULL,
      image_url text,
      quote_mint text NOT NULL CHECK (quote_mint IN ('SOL','USDC')),
      fee_selection text NOT NULL CHECK (fee_selection IN ('market','frenzy')),
      mint_address text,
      pool_address text,
      -- stored before confirmation is awaited, so a retried job confirms instead of re-sending
      signature text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sent','confirmed','failed')),
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((listing_id IS NULL) <> (prompt_id IS NULL))
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE token_launches`);
    await q.query(`DROP TABLE agent_listings`);
    await q.query(`DROP TABLE daily_usage`);
    await q.query(`DROP TABLE prompt_reviews`);
    await q.query(`DROP TABLE prompts`);
  }
}
