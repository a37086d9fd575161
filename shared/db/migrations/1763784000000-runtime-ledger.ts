import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What the full agent runtime needs: stable step keys for replay, provider and upstream cost on
 * each step (the usage ledger), batch item positions, and a ledger view per run.
 */
export class RuntimeLedger1763784000000 implements MigrationInterface {
  name = "RuntimeLedger1763784000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE run_steps ADD COLUMN step_key text`);
    await q.query(`UPDATE run_steps SET step_key = '#' || seq`);
    await q.query(`ALTER TABLE run_steps ALTER COLUMN step_key SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX run_steps_step_key_idx ON run_steps (run_id, step_key)`);
    await q.query(`ALTER TABLE run_steps ADD COLUMN provider text, ADD COLUMN upstream_cost double precision`);
    await q.query(`ALTER TABLE runs ADD COLUMN item_index int`);
    await q.query(`CREATE INDEX runs_api_key_queued_idx ON runs (api_key_id, queued_at DESC)`);
    await q.query(`CREATE VIEW usage_ledger AS
      SELECT r.id AS run_id, r.job_id, r.kind, r.parent_id, r.api_key_id, r.user_id, r.status, r.service_tier,
             r.queued_at, r.finished_at,
             COALESCE(SUM(s.input_tokens), 0)::int AS input_tokens,
             COALESCE(SUM(s.output_tokens), 0)::int AS output_tokens,
             COUNT(s.seq)::int AS steps,
             COALESCE(r.usage ->> 'total_cost', r.usage -> 'billing_info' ->> 'total_cost')::double precision AS billed_cost,
             SUM(s.upstream_cost) AS upstream_cost
        FROM runs r LEFT JOIN run_steps s ON s.run_id = r.id
       GROUP BY r.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW usage_ledger`);
    await q.query(`DROP INDEX runs_api_key_queued_idx`);
    await q.query(`ALTER TABLE runs DROP COLUMN item_index`);
    await q.query(`ALTER TABLE run_steps DROP COLUMN provider, DROP COLUMN upstream_cost`);
    await q.query(`DROP INDEX run_steps_step_key_idx`);
    await q.query(`ALTER TABLE run_steps DROP COLUMN step_key`);
  }
}
