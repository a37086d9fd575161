import type { MigrationInterface, QueryRunner } from "typeorm";

/** Users, API keys, runs and their steps: the tables the request spine needs. */
export class CreateSpine1763776800000 implements MigrationInterface {
  name = "CreateSpine1763776800000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      handle text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      key_hash char(64) NOT NULL UNIQUE,
      last4 text NOT NULL,
      tier text NOT NULL DEFAULT 'free',
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await q.query(`CREATE INDEX api_keys_user_id_idx ON api_keys (user_id)`);
    await q.query(`CREATE TABLE runs (
      id uuid PRIMARY KEY,
      job_id text NOT NULL UNIQUE,
      kind text NOT NULL CHECK (kind IN ('swarm','agent','swarm_batch','agent_batch','token_launch','prompt_tokenize')),
      parent_id uuid REFERENCES runs(id) ON DELETE CASCADE,
      api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      status text NOT NULL CHECK (status IN ('queued','running','succeeded','failed','cancelled')),
      request jsonb NOT NULL,
      output jsonb,
      usage jsonb,
      error jsonb,
      service_tier text NOT NULL DEFAULT 'standard',
      attempts int NOT NULL DEFAULT 0,
      queued_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      execution_time double precision
    )`);
    await q.query(`CREATE INDEX runs_user_queued_idx ON runs (user_id, queued_at DESC)`);
    await q.query(`CREATE INDEX runs_parent_idx ON runs (parent_id) WHERE parent_id IS NOT NULL`);
    await q.query(`CREATE TABLE run_steps (
      run_id uuid NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      seq int NOT NULL,
      agent_name text NOT NULL,
      role text NOT NULL,
      input jsonb NOT NULL,
      output jsonb NOT NULL,
      model text NOT NULL,
      input_tokens int NOT NULL DEFAULT 0,
      output_tokens int NOT NULL DEFAULT 0,
      cost double precision NOT NULL DEFAULT 0,
      started_at timestamptz NOT NULL,
      finished_at timestamptz NOT NULL,
      PRIMARY KEY (run_id, seq)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE run_steps`);
    await q.query(`DROP TABLE runs`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE users`);
  }
}
