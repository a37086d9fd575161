import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `GET /v1/jobs` pages an account's runs newest first by `(queued_at, id)`. Its default lists
 * top-level runs only (no batch items), so that scan gets a partial index in exactly that order,
 * and so does the status filter (listing the few `running` runs of an account with a million
 * finished ones must not walk them all). Batch items are listed through `runs_parent_idx`.
 */
export class RunListIndexes1763837200000 implements MigrationInterface {
  name = "RunListIndexes1763837200000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX runs_user_top_level_idx ON runs (user_id, queued_at DESC, id DESC) WHERE parent_id IS NULL`,
    );
    await q.query(
      `CREATE INDEX runs_user_status_top_level_idx ON runs (user_id, status, queued_at DESC, id DESC)
         WHERE parent_id IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX runs_user_status_top_level_idx`);
    await q.query(`DROP INDEX runs_user_top_level_idx`);
  }
}
