import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What a token launch needs to never send twice: every transaction signature of the launch (a
 * launcher may need several, landing in order) and the blockhashes they were built on, stored
 * before the first send. A retried job confirms those signatures; it builds new transactions only
 * once every stored blockhash has expired, when none of the old ones can land any more.
 */
export class TokenLaunchSignatures1763795700000 implements MigrationInterface {
  name = "TokenLaunchSignatures1763795700000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE token_launches
      ADD COLUMN signatures text[] NOT NULL DEFAULT '{}',
      ADD COLUMN blockhashes text[] NOT NULL DEFAULT '{}',
      ADD COLUMN sent_at timestamptz,
      ADD COLUMN confirmed_at timestamptz`);
    await q.query(`CREATE INDEX token_launches_listing_idx ON token_launches (listing_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX token_launches_listing_idx`);
    await q.query(
      `ALTER TABLE token_launches DROP COLUMN signatures, DROP COLUMN blockhashes, DROP COLUMN sent_at, DROP COLUMN confirmed_at`,
    );
  }
}
