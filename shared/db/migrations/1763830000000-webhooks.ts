import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Run webhooks: the URL a run is to be reported to (`runs.webhook_url`), one delivery row per run
 * that ends with one (made by a trigger in the statement that ends the run, so no path that ends a
 * run can forget it and no crash can lose it), and each account's signing secrets, sealed.
 */
export class Webhooks1763830000000 implements MigrationInterface {
  name = "Webhooks1763830000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs ADD COLUMN webhook_url text`);
    await q.query(`CREATE TABLE webhook_deliveries (
      run_id uuid PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
      user_id uuid,
      message_id text NOT NULL,
      event_type text NOT NULL,
      url text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts jsonb NOT NULL DEFAULT '[]',
      next_attempt_at timestamptz,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(`CREATE FUNCTION runs_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (run_id, user_id, message_id, event_type, url, next_attempt_at)
        VALUES (NEW.id, NEW.user_id, 'msg_' || replace(NEW.id::text, '-', ''),
                CASE NEW.status WHEN 'succeeded' THEN 'job.succeeded' WHEN 'failed' THEN 'job.failed'
                  ELSE 'job.cancelled' END,
                NEW.webhook_url, now())
        ON CONFLICT (run_id) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER runs_webhook_delivery AFTER UPDATE OF status ON runs FOR EACH ROW
      WHEN (NEW.webhook_url IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'cancelled')
        AND OLD.status NOT IN ('succeeded', 'failed', 'cancelled'))
      EXECUTE FUNCTION runs_webhook_delivery()`);
    await q.query(`CREATE TABLE webhook_secrets (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      sealed_secret text NOT NULL,
      secret_prefix text NOT NULL,
      revealed boolean NOT NULL DEFAULT false,
      previous_sealed_secret text,
      previous_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_secrets`);
    await q.query(`DROP TRIGGER runs_webhook_delivery ON runs`);
    await q.query(`DROP FUNCTION runs_webhook_delivery()`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`ALTER TABLE runs DROP COLUMN webhook_url`);
  }
}
