import type { DataSource } from "typeorm";
import type { RunStep } from "../entities/run-step.entity";
import { sql } from "../sql";

/** What a run's progress shows of one finished step: never its input or output. */
export type StepSummary = Pick<
  RunStep,
  "agent_name" | "role" | "model" | "input_tokens" | "output_tokens" | "cost" | "finished_at"
>;

/** The finished steps of a run, in the order they finished, without their messages. */
export async function loadStepSummaries(ds: DataSource, runId: string): Promise<StepSummary[]> {
  return sql<StepSummary>(
    ds,
    `SELECT agent_name, role, model, input_tokens, output_tokens, cost, finished_at
       FROM run_steps WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
}
