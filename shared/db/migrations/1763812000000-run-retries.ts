import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An operator's retry of a failed run (from Bull Board) re-opens the run for a new attempt; the
 * row keeps how each earlier attempt ended (see `shared/db/run-retry.ts`). Existing rows have had
 * no retry.
 */
export class RunRetries1763812000000 implements MigrationInterface {
  name = "RunRetries1763812000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs ADD COLUMN retries jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP COLUMN retries`);
  }
}
