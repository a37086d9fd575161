import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What a prompt's token launch (created with `tokenized_on`) needs:
 * - a prompt made for a launch is deleted when its launch fails, but the launch row stays (with
 *   its error and any signature, for support and reconciliation): its `prompt_id` becomes null;
 * - the daily counter the prompt was counted against (`quota_counter`, on `quota_day`), so the
 *   worker that records the failure can give that count back;
 * - one launch per prompt that has not failed, so two edits cannot launch two tokens for it.
 * Prompts stored with `tokenized_on` before launches were wired in never got a token: they are
 * marked as not tokenized, since a prompt reads as tokenized only once its token exists.
 */
export class PromptTokenLaunches1763802000000 implements MigrationInterface {
  name = "PromptTokenLaunches1763802000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE token_launches DROP CONSTRAINT token_launches_prompt_id_fkey`);
    await q.query(
      `ALTER TABLE token_launches ADD CONSTRAINT token_launches_prompt_id_fkey FOREIGN KEY (prompt_id) REFERENCES prompts(id) ON DELETE SET NULL`,
    );
    await q.query(`ALTER TABLE token_launches DROP CONSTRAINT token_launches_check`);
    await q.query(`ALTER TABLE token_launches ADD CONSTRAINT token_launches_subject_check
      CHECK (NOT (listing_id IS NOT NULL AND prompt_id IS NOT NULL) AND (listing_id IS NOT NULL OR prompt_id IS NOT NULL OR status = 'failed'))`);
    await q.query(`ALTER TABLE token_launches
      ADD COLUMN quota_counter text CHECK (quota_counter IN ('paid_prompts', 'paid_agents', 'free_content')),
      ADD COLUMN quota_day date,
      ADD CONSTRAINT token_launches_quota_check CHECK ((quota_counter IS NULL) = (quota_day IS NULL))`);
    await q.query(
      `CREATE UNIQUE INDEX token_launches_prompt_live_key ON token_launches (prompt_id) WHERE status <> 'failed'`,
    );
    await q.query(
      `UPDATE prompts SET tokenized_on = false, updated_at = now() WHERE tokenized_on AND token_address IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX token_launches_prompt_live_key`);
    await q.query(
      `ALTER TABLE token_launches DROP CONSTRAINT token_launches_quota_check, DROP COLUMN quota_day, DROP COLUMN quota_counter`,
    );
    await q.query(`DELETE FROM token_launches WHERE listing_id IS NULL AND prompt_id IS NULL`);
    await q.query(`ALTER TABLE token_launches DROP CONSTRAINT token_launches_subject_check`);
    await q.query(
      `ALTER TABLE token_launches ADD CONSTRAINT token_launches_check CHECK ((listing_id IS NULL) <> (prompt_id IS NULL))`,
    );
    await q.query(`ALTER TABLE token_launches DROP CONSTRAINT token_launches_prompt_id_fkey`);
    await q.query(
      `ALTER TABLE token_launches ADD CONSTRAINT token_launches_prompt_id_fkey FOREIGN KEY (prompt_id) REFERENCES prompts(id) ON DELETE CASCADE`,
    );
  }
}
