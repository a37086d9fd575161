import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A run's secrets move out of its request into a column of their own, sealed to the run (see
 * `shared/secrets/run-secrets.ts`). Requests stored before held them inline as `enc:v1:` values,
 * which job reads and logs showed back; those are replaced by the redaction marker. A run queued
 * before the upgrade that needed such a value runs without it.
 */
export class RunSealedSecrets1763805600000 implements MigrationInterface {
  name = "RunSealedSecrets1763805600000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs ADD COLUMN sealed_secrets jsonb`);
    await q.query(
      `UPDATE runs SET request = regexp_replace(request::text, '"enc:v1:[A-Za-z0-9+/=:]*"', '"[redacted]"', 'g')::jsonb
       WHERE request::text LIKE '%enc:v1:%'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP COLUMN sealed_secrets`);
  }
}
