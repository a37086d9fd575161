import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Bundles become marketplace listings beside prompts and agents, in the same table (`kind` bundle), with their
 * members in `bundle_items`, in the order the seller gave. A bundle's deletion takes its member rows with it; a
 * member cannot be deleted while a bundle holds it (the foreign key is checked at the end of the statement, so
 * deleting a user, which deletes their bundles and members together, still works).
 */
export class ListingBundles1763901400000 implements MigrationInterface {
  name = "ListingBundles1763901400000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE prompts DROP CONSTRAINT prompts_kind_check`);
    await queryRunner.query(
      `ALTER TABLE prompts ADD CONSTRAINT prompts_kind_check CHECK (kind IN ('prompt', 'agent', 'bundle'))`,
    );
    await queryRunner.query(`
      CREATE TABLE bundle_items (
        bundle_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
        item_id uuid NOT NULL REFERENCES prompts (id),
        position int NOT NULL,
        PRIMARY KEY (bundle_id, item_id)
      )
    `);
    // Which bundles hold a listing: a member's review decides whether they are shown.
    await queryRunner.query(`CREATE INDEX bundle_items_item_idx ON bundle_items (item_id)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE bundle_items`);
    await queryRunner.query(`DELETE FROM prompts WHERE kind = 'bundle'`);
    await queryRunner.query(`ALTER TABLE prompts DROP CONSTRAINT prompts_kind_check`);
    await queryRunner.query(
      `ALTER TABLE prompts ADD CONSTRAINT prompts_kind_check CHECK (kind IN ('prompt', 'agent'))`,
    );
  }
}
