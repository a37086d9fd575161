import type { MigrationInterface, QueryRunner } from "typeorm";

const BEFORE = ["swarm", "agent", "swarm_batch", "agent_batch", "token_launch", "prompt_tokenize"];

/**
 * The kinds of run the rest of the hosted API's surface stores: reasoning agents, the graph and
 * batched grid workflows, the auto swarm builder, generated agents and advanced research (one, or
 * a batch of them).
 */
const ADDED = [
  "reasoning_agent",
  "graph_workflow",
  "batched_grid_workflow",
  "auto_swarm_builder",
  "agent_generate",
  "advanced_research",
  "advanced_research_batch",
];

function kindCheck(kinds: string[]): string {
  return `CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(",")}))`;
}

export class HostedRunKinds1763810000000 implements MigrationInterface {
  name = "HostedRunKinds1763810000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP CONSTRAINT runs_kind_check`);
    await q.query(`ALTER TABLE runs ADD CONSTRAINT runs_kind_check ${kindCheck([...BEFORE, ...ADDED])}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP CONSTRAINT runs_kind_check`);
    await q.query(`ALTER TABLE runs ADD CONSTRAINT runs_kind_check ${kindCheck(BEFORE)}`);
  }
}
