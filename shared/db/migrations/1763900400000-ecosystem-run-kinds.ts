import type { MigrationInterface, QueryRunner } from "typeorm";

const BEFORE = [
  "swarm",
  "agent",
  "swarm_batch",
  "agent_batch",
  "token_launch",
  "prompt_tokenize",
  "reasoning_agent",
  "graph_workflow",
  "batched_grid_workflow",
  "auto_swarm_builder",
  "agent_generate",
  "advanced_research",
  "advanced_research_batch",
];

/**
 * The kinds of run OpenAI's clients start: a chat completion passed to the model as the client wrote
 * it (`/v1/chat/completions`), a Responses API response (`/v1/responses`) and an embeddings request
 * (`/v1/embeddings`).
 */
const ADDED = ["chat_completion", "response", "embedding"];

function kindCheck(kinds: string[]): string {
  return `CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(",")}))`;
}

export class EcosystemRunKinds1763900400000 implements MigrationInterface {
  name = "EcosystemRunKinds1763900400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE runs DROP CONSTRAINT runs_kind_check`);
    await q.query(`ALTER TABLE runs ADD CONSTRAINT runs_kind_check ${kindCheck([...BEFORE, ...ADDED])}`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Refused while runs of these kinds are stored: rolling back never deletes a client's runs.
    await q.query(`ALTER TABLE runs DROP CONSTRAINT runs_kind_check`);
    await q.query(`ALTER TABLE runs ADD CONSTRAINT runs_kind_check ${kindCheck(BEFORE)}`);
  }
}
