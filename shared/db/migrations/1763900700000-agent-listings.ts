import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Agents become marketplace listings beside prompts, in the same table: `kind` tells them apart,
 * an agent adds its `language`, its `requirements` (packages to install) and its definition
 * (`agent_config`, an AgentSpec as the agent API takes it). One copy of a text per user and kind:
 * an agent may carry the text of a prompt its owner published.
 */
export class AgentListings1763900700000 implements MigrationInterface {
  name = "AgentListings1763900700000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE prompts
        ADD COLUMN kind text NOT NULL DEFAULT 'prompt' CHECK (kind IN ('prompt', 'agent')),
        ADD COLUMN language text NULL,
        ADD COLUMN requirements jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN agent_config jsonb NULL
    `);
    await queryRunner.query(`DROP INDEX prompts_user_content_key`);
    await queryRunner.query(`CREATE UNIQUE INDEX prompts_user_content_key ON prompts (user_id, kind, content_hash)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM prompts WHERE kind = 'agent'`);
    await queryRunner.query(`DROP INDEX prompts_user_content_key`);
    await queryRunner.query(`CREATE UNIQUE INDEX prompts_user_content_key ON prompts (user_id, content_hash)`);
    await queryRunner.query(
      `ALTER TABLE prompts DROP COLUMN kind, DROP COLUMN language, DROP COLUMN requirements, DROP COLUMN agent_config`,
    );
  }
}
