import { AppError } from "../../shared/errors";

/** An agent's turn failed after its retries; the swarm run fails naming the agent. */
export class AgentTurnError extends AppError {
  constructor(readonly agent: string, cause: Error & { code?: string }) {
    super(500, cause instanceof AppError ? cause.code : "AGENT_FAILED", `Agent '${agent}' failed: ${cause.message}`, { agent });
  }
}
