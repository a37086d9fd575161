import { AppError } from "../../shared/errors";

/** Codes of a failed turn kept as the swarm run's code, as they are for a single agent's run. */
const KEPT_CODES = new Set(["EGRESS_REFUSED"]);

/** An agent's turn failed after its retries; the swarm run fails naming the agent. */
export class AgentTurnError extends AppError {
  /** The run's budget stop that ended the turn, when that is what did (the run may wind down on it). */
  readonly budgetStop?: AppError;

  constructor(
    readonly agent: string,
    cause: Error & { code?: string },
  ) {
    const code = cause instanceof AppError || KEPT_CODES.has(cause.code ?? "") ? cause.code! : "AGENT_FAILED";
    super(500, code, `Agent '${agent}' failed: ${cause.message}`, { agent });
    this.cause = cause; // whose fault the turn's failure is, the turn's own error tells (`failureCauseOf`)
    if (cause instanceof AppError && cause.code === "BUDGET_EXCEEDED") this.budgetStop = cause;
  }
}
