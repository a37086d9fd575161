import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Who is executing a run, and until when that holds unless renewed. A job whose queue lock was
 * lost (a Redis outage, a stalled worker) can be delivered again while its first execution is
 * still going; the lease in Postgres makes the second delivery wait instead of running the run a
 * second time.
 */
export class RunLease1763798400000 implements MigrationInterface {
  name = "RunLease1763798400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs ADD COLUMN lease_owner uuid, ADD COLUMN lease_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP COLUMN lease_owner, DROP COLUMN lease_until`);
  }
}
