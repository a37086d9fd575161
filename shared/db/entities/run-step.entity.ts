import { EntitySchema } from "typeorm";

/** One finished LLM turn of a run; a retried job replays these instead of calling the LLM again. */
export interface RunStep {
  run_id: string;
  seq: number;
  agent_name: string;
  role: string;
  input: any;
  output: any;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost: number;
  started_at: Date;
  finished_at: Date;
}

export const RunStepEntity = new EntitySchema<RunStep>({
  name: "RunStep",
  tableName: "run_steps",
  columns: {
    run_id: { type: "uuid", primary: true },
    seq: { type: "int", primary: true },
    agent_name: { type: "text" },
    role: { type: "text" },
    input: { type: "jsonb" },
    output: { type: "jsonb" },
    model: { type: "text" },
    input_tokens: { type: "int" },
    output_tokens: { type: "int" },
    cost: { type: "double precision" },
    started_at: { type: "timestamptz" },
    finished_at: { type: "timestamptz" },
  },
});
