import type { DataSource } from "typeorm";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { insertStep } from "../../shared/db/run-store";

/** What one LLM turn produced, before it is stored. */
export interface StepOutcome {
  output: unknown;
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

export interface StepMeta {
  agentName: string;
  role: string;
  model: string;
  input: unknown;
}

/**
 * Gives every LLM turn of a run a sequence number and stores it when it finishes. When a job is
 * retried after a crash, turns already stored are replayed from the database instead of calling
 * the LLM again. Numbers are handed out when a turn is *started*, in the order the run's code
 * starts them, which is deterministic even when turns then run in parallel.
 */
export class StepRecorder {
  private nextSeq = 0;
  private readonly finished: Map<number, RunStep>;

  constructor(
    private readonly ds: DataSource,
    private readonly runId: string,
    finishedSteps: RunStep[],
  ) {
    this.finished = new Map(finishedSteps.map((s) => [s.seq, s]));
  }

  /** Number of steps replayed from an earlier attempt so far (for logs and tests). */
  replayed = 0;

  /** Runs `call` as the next step, or returns the stored result of that step. */
  async step(meta: StepMeta, call: () => Promise<StepOutcome>): Promise<StepOutcome> {
    const seq = this.nextSeq++;
    const stored = this.finished.get(seq);
    if (stored && stored.agent_name === meta.agentName) {
      this.replayed++;
      return { output: stored.output, inputTokens: stored.input_tokens, outputTokens: stored.output_tokens, cost: stored.cost };
    }
    const startedAt = new Date();
    const outcome = await call();
    await insertStep(this.ds, {
      run_id: this.runId,
      seq,
      agent_name: meta.agentName,
      role: meta.role,
      input: meta.input,
      output: outcome.output,
      model: meta.model,
      input_tokens: outcome.inputTokens,
      output_tokens: outcome.outputTokens,
      cost: outcome.cost,
      started_at: startedAt,
      finished_at: new Date(),
    });
    return outcome;
  }
}
