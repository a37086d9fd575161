import { EntitySchema } from "typeorm";

/**
 * How a step's call ended: it `finished` (its result is what a retried job replays), or it was
 * `cut_off` (a deadline, a cancel, or a provider failure after it had answered part of it) or
 * `interrupted` (its worker died) and is billed what it consumed, never replayed.
 */
export type StepStatus = "finished" | "cut_off" | "interrupted";

/**
 * One step of a run (an LLM call or a tool call): the calls' part of the billing ledger (the
 * other charges are in `run_charges`), and what a retried job replays instead of calling again.
 */
export interface RunStep {
  run_id: string;
  /** Order in which steps finished. */
  seq: number;
  /** Stable identity of the step within the run (lane and index), used for replay. */
  step_key: string;
  agent_name: string;
  role: string;
  /** What the step was given (messages of an LLM call, arguments of a tool call): its shape depends on `role`. */
  input: unknown;
  /** What the step produced (an assistant message, a tool result): its shape depends on `role`. */
  output: unknown;
  model: string;
  provider: string | null;
  input_tokens: number;
  output_tokens: number;
  /** What we bill for the step. */
  cost: number;
  status: StepStatus;
  /** What the upstream provider charges for it, when its prices are known (for operators). */
  upstream_cost: number | null;
  started_at: Date;
  finished_at: Date;
  /** Which attempt of its run stored it (1 unless the run was retried); set by the insert, from the run. */
  attempt?: number;
}

export const RunStepEntity = new EntitySchema<RunStep>({
  name: "RunStep",
  tableName: "run_steps",
  columns: {
    run_id: { type: "uuid", primary: true },
    seq: { type: "int", primary: true },
    step_key: { type: "text" },
    agent_name: { type: "text" },
    role: { type: "text" },
    input: { type: "jsonb" },
    output: { type: "jsonb" },
    model: { type: "text" },
    provider: { type: "text", nullable: true },
    input_tokens: { type: "int" },
    output_tokens: { type: "int" },
    cost: { type: "double precision" },
    status: { type: "text", default: "finished" },
    upstream_cost: { type: "double precision", nullable: true },
    started_at: { type: "timestamptz" },
    finished_at: { type: "timestamptz" },
    attempt: { type: "int", default: 1 },
  },
});
