import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A run retried (by its client or an operator) runs in attempts: each ledger row says which
 * attempt of its run stored it (`attempt`, 1 for the first; rows stored before this migration are
 * taken as the first's), and the webhook of a retried run's end is a new message (its own
 * `message_id`, `_a<attempt>` appended) that replaces the delivery of the attempt before, so a
 * receiver that deduplicates by message id still hears of the new ending.
 */
export class RunAttempts1763900200000 implements MigrationInterface {
  name = "RunAttempts1763900200000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE run_steps ADD COLUMN attempt int NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE run_charges ADD COLUMN attempt int NOT NULL DEFAULT 1`);
    await q.query(`CREATE OR REPLACE FUNCTION runs_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        message text := 'msg_' || replace(NEW.id::text, '-', '')
          || CASE WHEN jsonb_array_length(NEW.retries) > 0 THEN '_a' || (jsonb_array_length(NEW.retries) + 1) ELSE '' END;
      BEGIN
        INSERT INTO webhook_deliveries (run_id, user_id, message_id, event_type, url, next_attempt_at)
        VALUES (NEW.id, NEW.user_id, message,
                CASE NEW.status WHEN 'succeeded' THEN 'job.succeeded' WHEN 'failed' THEN 'job.failed'
                  ELSE 'job.cancelled' END,
                NEW.webhook_url, now())
        ON CONFLICT (run_id) DO UPDATE SET message_id = EXCLUDED.message_id, event_type = EXCLUDED.event_type,
          url = EXCLUDED.url, status = 'pending', attempts = '[]', next_attempt_at = now(), lease_until = NULL,
          created_at = now(), ended_at = NULL
        WHERE webhook_deliveries.message_id <> EXCLUDED.message_id;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION runs_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (run_id, user_id, message_id, event_type, url, next_attempt_at)
        VALUES (NEW.id, NEW.user_id, 'msg_' || replace(NEW.id::text, '-', ''),
                CASE NEW.status WHEN 'succeeded' THEN 'job.succeeded' WHEN 'failed' THEN 'job.failed'
                  ELSE 'job.cancelled' END,
                NEW.webhook_url, now())
        ON CONFLICT (run_id) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`ALTER TABLE run_charges DROP COLUMN attempt`);
    await q.query(`ALTER TABLE run_steps DROP COLUMN attempt`);
  }
}
