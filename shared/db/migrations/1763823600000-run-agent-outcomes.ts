import type { MigrationInterface, QueryRunner } from "typeorm";

/** What each agent of a run that did not finish as asked had done (see `AgentOutcome`). */
export class RunAgentOutcomes1763823600000 implements MigrationInterface {
  name = "RunAgentOutcomes1763823600000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs ADD COLUMN agents jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP COLUMN agents`);
  }
}
