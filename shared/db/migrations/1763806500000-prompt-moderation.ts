import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Review that means review:
 * - a user's `role`: `moderator` is granted by the operator (`npm run apikey -- role`), and only
 *   a moderator approves a prompt or lifts a rejection;
 * - on a prompt, the status its owner asked for (`requested_status`, a request only) and the last
 *   decision: who made it (`moderated_by`; null for an automatic approval), when, and why.
 */
export class PromptModeration1763806500000 implements MigrationInterface {
  name = "PromptModeration1763806500000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'user' CHECK (role IN ('user','moderator'))`,
    );
    await q.query(`ALTER TABLE prompts
      ADD COLUMN requested_status text CHECK (requested_status IN ('pending','approved','rejected')),
      ADD COLUMN moderated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      ADD COLUMN moderated_at timestamptz,
      ADD COLUMN moderation_reason text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE prompts DROP COLUMN moderation_reason, DROP COLUMN moderated_at, DROP COLUMN moderated_by, DROP COLUMN requested_status`,
    );
    await q.query(`ALTER TABLE users DROP COLUMN role`);
  }
}
