import type { MigrationInterface, QueryRunner } from "typeorm";

/** What the view summed per run before: LLM and tool calls only, beside the bill the run stored. */
const STEPS_ONLY_VIEW = `CREATE VIEW usage_ledger AS
  SELECT r.id AS run_id, r.job_id, r.kind, r.parent_id, r.api_key_id, r.user_id, r.status, r.service_tier,
         r.queued_at, r.finished_at,
         COALESCE(SUM(s.input_tokens), 0)::int AS input_tokens,
         COALESCE(SUM(s.output_tokens), 0)::int AS output_tokens,
         COUNT(s.seq)::int AS steps,
         COALESCE(r.usage ->> 'total_cost', r.usage -> 'billing_info' ->> 'total_cost')::double precision AS billed_cost,
         SUM(s.upstream_cost) AS upstream_cost
    FROM runs r LEFT JOIN run_steps s ON s.run_id = r.id
   GROUP BY r.id`;

/**
 * One ledger for every charge: a call's row says how it ended (a call cut off by a deadline, a
 * cancel or a provider failure after output is billed what it consumed, and so is one a worker
 * crash interrupted), and the charges that are not calls (per-agent, image, tool, MCP and search
 * fees, their refunds, and discounts) get rows of their own. The view sums both per run beside
 * the bill the run stored, which they must equal.
 */
export class BillingLedger1763820000000 implements MigrationInterface {
  name = "BillingLedger1763820000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE run_steps ADD COLUMN status text NOT NULL DEFAULT 'finished'
         CHECK (status IN ('finished', 'cut_off', 'interrupted'))`,
    );
    await q.query(`CREATE TABLE run_charges (
      run_id uuid NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      charge_key text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('agent', 'image', 'tool', 'mcp_call', 'search', 'discount')),
      agent_name text,
      amount double precision NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (run_id, charge_key)
    )`);
    await q.query(`DROP VIEW usage_ledger`);
    await q.query(`CREATE VIEW usage_ledger AS
      WITH steps AS (
        SELECT run_id, SUM(input_tokens)::int AS input_tokens, SUM(output_tokens)::int AS output_tokens,
               COUNT(*)::int AS steps, SUM(cost) AS cost, SUM(upstream_cost) AS upstream_cost
          FROM run_steps GROUP BY run_id
      ), charges AS (
        SELECT run_id, SUM(amount) AS amount FROM run_charges GROUP BY run_id
      )
      SELECT r.id AS run_id, r.job_id, r.kind, r.parent_id, r.api_key_id, r.user_id, r.status, r.service_tier,
             r.queued_at, r.finished_at,
             COALESCE(s.input_tokens, 0) AS input_tokens,
             COALESCE(s.output_tokens, 0) AS output_tokens,
             COALESCE(s.steps, 0) AS steps,
             COALESCE(r.usage ->> 'total_cost', r.usage -> 'billing_info' ->> 'total_cost')::double precision AS billed_cost,
             COALESCE(s.cost, 0) + COALESCE(c.amount, 0) AS ledger_cost,
             s.upstream_cost
        FROM runs r LEFT JOIN steps s ON s.run_id = r.id LEFT JOIN charges c ON c.run_id = r.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW usage_ledger`);
    await q.query(STEPS_ONLY_VIEW);
    await q.query(`DROP TABLE run_charges`);
    await q.query(`ALTER TABLE run_steps DROP COLUMN status`);
  }
}
