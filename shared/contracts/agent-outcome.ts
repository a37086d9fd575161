/**
 * One agent's part in a run that did not finish as asked (it failed, was cancelled, or stopped at
 * its budget): whether its last turn `succeeded` (with its answer), `failed` (with why), or it
 * never started (`skipped`). Failed answers and job reads list them under `agents`.
 */
export interface AgentOutcome {
  agent: string;
  status: "succeeded" | "failed" | "skipped";
  /** Its last answer, when a turn of it finished. */
  output: unknown;
  error?: string | null;
}

/**
 * Why a run whose budget said `on_exceeded: "wind_down"` ended early, stored with what it had
 * done: it stopped starting work at the limit and answered with what finished (status
 * `incomplete`) instead of failing.
 */
export interface WoundDown {
  reason: "budget_exceeded";
  /** The ceiling reached: `time`, `cost`, `tokens`, or `shared` (the batch's or the account's day). */
  limit: string;
  message: string;
  agents: AgentOutcome[];
}
