import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Approval gates: a run may wait in `awaiting_approval` for its client's decision on the tool
 * calls it asked for (`runs.pending_approval` lists them, and since when). A run that parks with a
 * webhook_url gets a delivery of its own (`job.awaiting_approval`), made by a trigger in the
 * statement that parks it, as the run's end makes one: a run may now have several deliveries, so a
 * delivery is keyed by its `message_id` (the end's keeps `msg_<run>`, or `msg_<run>_a<n>` for a
 * retried run's n-th attempt; a parking's adds its claim's attempt): a retried run's new ending is a
 * delivery of its own beside the earlier attempt's, rather than replacing it.
 */
export class ApprovalGates1763900300000 implements MigrationInterface {
  name = "ApprovalGates1763900300000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP CONSTRAINT runs_status_check`);
    await q.query(`ALTER TABLE runs ADD CONSTRAINT runs_status_check
      CHECK (status IN ('queued', 'running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled'))`);
    await q.query(`ALTER TABLE runs ADD COLUMN pending_approval jsonb`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey`);
    await q.query(`ALTER TABLE webhook_deliveries ADD PRIMARY KEY (message_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_run ON webhook_deliveries (run_id)`);
    await q.query(`CREATE OR REPLACE FUNCTION runs_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (run_id, user_id, message_id, event_type, url, next_attempt_at)
        VALUES (NEW.id, NEW.user_id,
                'msg_' || replace(NEW.id::text, '-', '') ||
                  CASE WHEN NEW.status = 'awaiting_approval' THEN '_approval_' || NEW.attempts
                    WHEN jsonb_array_length(NEW.retries) > 0 THEN '_a' || (jsonb_array_length(NEW.retries) + 1)
                    ELSE '' END,
                CASE NEW.status WHEN 'succeeded' THEN 'job.succeeded' WHEN 'failed' THEN 'job.failed'
                  WHEN 'awaiting_approval' THEN 'job.awaiting_approval' ELSE 'job.cancelled' END,
                NEW.webhook_url, now())
        ON CONFLICT (message_id) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER runs_webhook_delivery ON runs`);
    await q.query(`CREATE TRIGGER runs_webhook_delivery AFTER UPDATE OF status ON runs FOR EACH ROW
      WHEN (NEW.webhook_url IS NOT NULL AND OLD.status IS DISTINCT FROM NEW.status
        AND NEW.status IN ('awaiting_approval', 'succeeded', 'failed', 'cancelled')
        AND OLD.status NOT IN ('succeeded', 'failed', 'cancelled'))
      EXECUTE FUNCTION runs_webhook_delivery()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER runs_webhook_delivery ON runs`);
    await q.query(`CREATE TRIGGER runs_webhook_delivery AFTER UPDATE OF status ON runs FOR EACH ROW
      WHEN (NEW.webhook_url IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'cancelled')
        AND OLD.status NOT IN ('succeeded', 'failed', 'cancelled'))
      EXECUTE FUNCTION runs_webhook_delivery()`);
    await q.query(`DELETE FROM webhook_deliveries WHERE event_type = 'job.awaiting_approval'`);
    // A retried run's endings each had a delivery: the latest stays, as the run-attempts migration keeps it.
    await q.query(`DELETE FROM webhook_deliveries d USING webhook_deliveries n
      WHERE d.run_id = n.run_id AND (d.created_at, d.message_id) < (n.created_at, n.message_id)`);
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
    await q.query(`DROP INDEX webhook_deliveries_run`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey`);
    await q.query(`ALTER TABLE webhook_deliveries ADD PRIMARY KEY (run_id)`);
    await q.query(`ALTER TABLE runs DROP COLUMN pending_approval`);
    await q.query(`UPDATE runs SET status = 'failed' WHERE status = 'awaiting_approval'`);
    await q.query(`ALTER TABLE runs DROP CONSTRAINT runs_status_check`);
    await q.query(`ALTER TABLE runs ADD CONSTRAINT runs_status_check
      CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'))`);
  }
}
