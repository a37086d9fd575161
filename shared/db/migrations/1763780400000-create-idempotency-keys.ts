import type { MigrationInterface, QueryRunner } from "typeorm";

/** `Idempotency-Key` records: one per API key and key, holding the first request's answer. */
export class CreateIdempotencyKeys1763780400000 implements MigrationInterface {
  name = "CreateIdempotencyKeys1763780400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE idempotency_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
      key text NOT NULL,
      request_hash char(64) NOT NULL,
      run_id uuid REFERENCES runs(id) ON DELETE SET NULL,
      response_status int,
      response_body json,
      response_headers jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT idempotency_keys_api_key_id_key_key UNIQUE (api_key_id, key)
    )`);
    // For pruning records past their 24 hours.
    await q.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
